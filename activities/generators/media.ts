import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { itemSources, type Rng } from './logic/rng';
import type { BinaryItem } from './documents';

const load = createRequire(__filename);
const run = promisify(execFile);

const SUBJECTS = ['sunset', 'ocean', 'forest', 'city', 'desert', 'aurora', 'meadow', 'harbor'];

function colour(rng: Rng): [number, number, number] {
  return [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
}

/** A PNG: a two-colour gradient with a few filled circles, sizes and colours from the seed. */
function png(rng: Rng): { data: Buffer; width: number; height: number } {
  const { PNG } = load('pngjs') as typeof import('pngjs');
  const width = rng.int(48, 160);
  const height = rng.int(48, 160);
  const a = colour(rng);
  const b = colour(rng);
  const circles = Array.from({ length: rng.int(1, 4) }, () => ({
    x: rng.int(0, width - 1),
    y: rng.int(0, height - 1),
    r: rng.int(4, Math.max(5, Math.floor(Math.min(width, height) / 3))),
    c: colour(rng),
  }));
  const img = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      let px: [number, number, number] = [0, 1, 2].map((k) => Math.round(a[k] * (1 - t) + b[k] * t)) as [
        number,
        number,
        number,
      ];
      for (const c of circles) if ((x - c.x) ** 2 + (y - c.y) ** 2 <= c.r ** 2) px = c.c;
      const i = (y * width + x) * 4;
      img.data[i] = px[0];
      img.data[i + 1] = px[1];
      img.data[i + 2] = px[2];
      img.data[i + 3] = 255;
    }
  return { data: PNG.sync.write(img), width, height };
}

/** A mono 16-bit PCM WAV of a few tones: the 44-byte RIFF header written by hand. */
export function wav(rng: Rng): { data: Buffer; durationMs: number; sampleRate: number } {
  const sampleRate = 8_000;
  const notes = Array.from({ length: rng.int(2, 5) }, () => ({ freq: rng.int(220, 880), ms: rng.int(150, 400) }));
  const samples = notes.reduce((s, n) => s + Math.floor((sampleRate * n.ms) / 1000), 0);
  const data = Buffer.alloc(44 + samples * 2);
  data.write('RIFF', 0, 'ascii');
  data.writeUInt32LE(36 + samples * 2, 4);
  data.write('WAVE', 8, 'ascii');
  data.write('fmt ', 12, 'ascii');
  data.writeUInt32LE(16, 16); // fmt chunk size
  data.writeUInt16LE(1, 20); // PCM
  data.writeUInt16LE(1, 22); // mono
  data.writeUInt32LE(sampleRate, 24);
  data.writeUInt32LE(sampleRate * 2, 28); // byte rate
  data.writeUInt16LE(2, 32); // block align
  data.writeUInt16LE(16, 34); // bits per sample
  data.write('data', 36, 'ascii');
  data.writeUInt32LE(samples * 2, 40);
  let at = 44;
  for (const n of notes) {
    const count = Math.floor((sampleRate * n.ms) / 1000);
    for (let i = 0; i < count; i++) {
      const env = Math.min(1, i / 200, (count - i) / 200);
      data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * n.freq * i) / sampleRate) * 12_000 * env), at);
      at += 2;
    }
  }
  return { data, durationMs: Math.round((samples * 1000) / sampleRate), sampleRate };
}

/** A short MP4 (MPEG-4 Part 2) rendered by the ffmpeg binary from a test pattern; bit-exact flags, no metadata. */
async function mp4(rng: Rng): Promise<{ data: Buffer; durationMs: number; width: number; height: number }> {
  const width = rng.pick([160, 192, 240]);
  const height = rng.pick([120, 144, 180]);
  const seconds = rng.int(1, 2);
  const hue = rng.int(0, 359);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lakeward-mp4-'));
  const out = path.join(dir, 'clip.mp4');
  try {
    await run(
      'ffmpeg',
      [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=${width}x${height}:rate=10:duration=${seconds}`,
        '-vf',
        `hue=h=${hue}`,
        '-c:v',
        'mpeg4',
        '-q:v',
        '6',
        '-threads',
        '1',
        '-pix_fmt',
        'yuv420p',
        '-fflags',
        '+bitexact',
        '-flags:v',
        '+bitexact',
        '-map_metadata',
        '-1',
        '-f',
        'mp4',
        out,
      ],
      { timeout: 60_000 },
    );
    return { data: await fs.readFile(out), durationMs: seconds * 1000, width, height };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** One media file of `type` (png, wav, mp4) for the item's seed. */
export async function buildMedia(type: string, seed: number, asOf: string, index: number): Promise<BinaryItem> {
  const { rng } = itemSources(seed, asOf, 'media', type, index);
  const subject = rng.pick(SUBJECTS);
  if (type === 'png') {
    const p = png(rng);
    return {
      title: `${subject} still ${index + 1}`,
      summary: `A ${p.width}x${p.height} ${subject} gradient image.`,
      metadata: { width: String(p.width), height: String(p.height), subject },
      data: p.data,
    };
  }
  if (type === 'wav') {
    const w = wav(rng);
    return {
      title: `${subject} tones ${index + 1}`,
      summary: `A ${w.durationMs} ms mono tone sequence at ${w.sampleRate} Hz.`,
      metadata: { duration_ms: String(w.durationMs), sample_rate: String(w.sampleRate), subject },
      data: w.data,
    };
  }
  if (type === 'mp4') {
    const v = await mp4(rng);
    return {
      title: `${subject} clip ${index + 1}`,
      summary: `A ${v.durationMs / 1000} s ${v.width}x${v.height} test-pattern video.`,
      metadata: { duration_ms: String(v.durationMs), width: String(v.width), height: String(v.height), subject },
      data: v.data,
    };
  }
  throw new Error(`unknown media type ${type}`);
}
