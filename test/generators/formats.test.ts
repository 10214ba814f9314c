import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { generateChunkItems } from '../../activities/generators/chunk';
import { buildDocument } from '../../activities/generators/documents';
import { buildMedia } from '../../activities/generators/media';
import { buildRepo } from '../../activities/generators/logic/code';
import { buildLogFile } from '../../activities/generators/logic/logs';
import { GENERATOR_KINDS, GENERATOR_TYPES, generateBodySchema, type GenerateInput } from '../../schemas/generators';

/** Generated files are real files of their format: the oracles of each format open or parse them. */
const PY = path.join(__dirname, '../../.venv/bin/python');
const AS_OF = '2026-03-01';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lw-gen-formats-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (type: string, n: number, index = 0) =>
  buildLogFile({ type, seed: 7, asOf: AS_OF, daysBack: 3, linesPerFile: n, index })
    .data.toString('utf8')
    .split('\n')
    .slice(0, -1);

describe('log lines', () => {
  it('nginx_access lines are in the combined log format', () => {
    const re =
      /^(\d{1,3}\.){3}\d{1,3} - - \[\d{2}\/(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\/\d{4}:\d{2}:\d{2}:\d{2} \+0000\] "(GET|POST|PUT|DELETE) \/\S* HTTP\/1\.1" \d{3} \d+ "-" "[^"]+"$/;
    const all = lines('nginx_access', 300);
    expect(all).toHaveLength(300);
    for (const l of all) expect(l).toMatch(re);
  });

  it('syslog lines follow the RFC 5424 grammar (PRI VERSION TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD MSG)', () => {
    const sdName = '[\\x21\\x23-\\x3c\\x3e-\\x5c\\x5e-\\x7e]{1,32}'; // PRINTUSASCII except = ] "
    const sdParam = `${sdName}="(?:[^"\\\\\\]]|\\\\["\\\\\\]])*"`;
    const sdElement = `\\[${sdName}(?: ${sdParam})*\\]`;
    const re = new RegExp(
      '^<(\\d{1,3})>1 ' +
        '(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,6})?(?:Z|[+-]\\d{2}:\\d{2})) ' +
        '([\\x21-\\x7e]{1,255}) ([\\x21-\\x7e]{1,48}) ([\\x21-\\x7e]{1,128}) ([\\x21-\\x7e]{1,32}) ' +
        `(-|(?:${sdElement})+)(?: (.*))?$`,
    );
    for (const l of lines('syslog', 300)) {
      const m = re.exec(l);
      expect(m).not.toBeNull();
      expect(Number(m![1])).toBeLessThanOrEqual(191);
      expect(Number.isNaN(Date.parse(m![2]))).toBe(false);
    }
  });

  it('app_json and otel_trace lines are one JSON object each; timestamps rise inside days_back before as_of', () => {
    const app = lines('app_json', 200).map((l) => JSON.parse(l));
    const ts = app.map((o) => Date.parse(o.ts));
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    expect(Math.min(...ts)).toBeGreaterThanOrEqual(Date.parse(`${AS_OF}T00:00:00Z`) - 3 * 86_400_000);
    expect(Math.max(...ts)).toBeLessThan(Date.parse(`${AS_OF}T00:00:00Z`));
    for (const o of lines('otel_trace', 100).map((l) => JSON.parse(l))) {
      expect(o.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(o.span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(BigInt(o.end_time_unix_nano) >= BigInt(o.start_time_unix_nano)).toBe(true);
    }
    expect(lines('app_json', 50, 3)).toEqual(lines('app_json', 50, 3));
    expect(lines('app_json', 50, 3)).not.toEqual(lines('app_json', 50, 4));
  });
});

describe('documents and media', () => {
  it('PDF, DOCX, PPTX and XLSX open in pypdf, python-docx, python-pptx and openpyxl; EML parses as MIME', async () => {
    const titles: Record<string, string> = {};
    for (const type of GENERATOR_TYPES.documents) {
      const doc = await buildDocument(type, 11, AS_OF, 0);
      writeFileSync(path.join(dir, `d.${type}`), doc.data);
      titles[type] = doc.title;
    }
    const script = `
import sys, json, email
from pypdf import PdfReader
import docx, pptx, openpyxl
d = sys.argv[1]
out = {}
r = PdfReader(d + '/d.pdf'); out['pdf'] = r.pages[0].extract_text().split('\\n')[0]
out['docx'] = docx.Document(d + '/d.docx').paragraphs[0].text
p = pptx.Presentation(d + '/d.pptx'); out['pptx'] = p.slides[0].shapes[0].text_frame.text
wb = openpyxl.load_workbook(d + '/d.xlsx'); out['xlsx'] = [c.value for c in wb['Data'][1]]
m = email.message_from_bytes(open(d + '/d.eml', 'rb').read()); out['eml'] = m['Subject']
print(json.dumps(out))`;
    const out = JSON.parse(execFileSync(PY, ['-c', script, dir], { encoding: 'utf8' }));
    expect(titles.pdf.startsWith(out.pdf.trim().slice(0, 20))).toBe(true);
    expect(out.docx).toBe(titles.docx);
    expect(out.pptx).toBe(titles.pptx);
    expect(out.xlsx).toEqual(['Region', 'Units', 'Revenue']);
    expect(out.eml.replace(/\s+/g, ' ')).toBe(titles.eml);
  }, 60_000);

  it('PNG decodes, WAV is PCM with its header sizes right, MP4 has a video stream of the stated length', async () => {
    const png = await buildMedia('png', 5, AS_OF, 0);
    const img = PNG.sync.read(png.data);
    expect(`${img.width}`).toBe(png.metadata.width);
    const wav = (await buildMedia('wav', 5, AS_OF, 0)).data;
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    const info = JSON.parse(
      execFileSync(
        PY,
        [
          '-c',
          'import wave,sys,json; w=wave.open(sys.argv[1]); print(json.dumps([w.getnchannels(), w.getsampwidth(), w.getframerate()]))',
          writeTmp('a.wav', wav),
        ],
        {
          encoding: 'utf8',
        },
      ),
    );
    expect(info).toEqual([1, 2, 8000]);
    const mp4 = await buildMedia('mp4', 5, AS_OF, 0);
    const probe = spawnSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type,width', '-of', 'json', writeTmp('a.mp4', mp4.data)],
      {
        encoding: 'utf8',
      },
    );
    expect(probe.status).toBe(0);
    expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({
      codec_type: 'video',
      width: Number(mp4.metadata.width),
    });
  }, 60_000);
});

function writeTmp(name: string, data: Buffer | string): string {
  const p = path.join(dir, name);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, data);
  return p;
}

describe('code repositories', () => {
  const writeRepo = (type: string, index: number) => {
    const repo = buildRepo(type, 3, AS_OF, index);
    const root = path.join(dir, 'repos', type, repo.name);
    for (const f of repo.files) writeTmp(path.relative(dir, path.join(root, f.path)), f.text);
    return { root, files: repo.files.map((f) => path.join(root, f.path)) };
  };

  it('every Python file parses with ast and every JavaScript file passes node --check', () => {
    for (let i = 0; i < 4; i++) {
      const py = writeRepo('python', i).files.filter((f) => f.endsWith('.py'));
      expect(py.length).toBeGreaterThanOrEqual(4);
      execFileSync(PY, ['-c', 'import ast,sys\nfor p in sys.argv[1:]: ast.parse(open(p).read(), p)', ...py]);
      for (const js of writeRepo('javascript', i).files.filter((f) => f.endsWith('.js')))
        execFileSync(process.execPath, ['--check', js]);
    }
  });

  it('every Java file parses (javac compiles the repository, else java-parser)', () => {
    const javac = spawnSync('javac', ['-version']).status === 0;
    for (let i = 0; i < 3; i++) {
      const java = writeRepo('java', i).files.filter((f) => f.endsWith('.java'));
      expect(java).toHaveLength(3);
      if (javac) execFileSync('javac', ['-proc:none', '-d', path.join(dir, `classes-${i}`), ...java]);
      else
        execFileSync(process.execPath, [
          '--input-type=module',
          '-e',
          "import { parse } from 'java-parser'; import fs from 'node:fs'; for (const f of process.argv.slice(1)) parse(fs.readFileSync(f, 'utf8'));",
          ...java,
        ]);
    }
    if (javac) expect(readdirSync(path.join(dir, 'classes-0')).length).toBeGreaterThan(0);
  });
});

describe('limits', () => {
  const over: [kind: 'documents' | 'media' | 'code' | 'logs' | 'knowledge', type: string, n: number, says: string][] = [
    ['documents', 'pdf', 10_001, 'at most 10,000 documents per type'],
    ['media', 'png', 5_001, 'at most 5,000 media files per type'],
    ['code', 'python', 51, 'at most 50 repositories per type'],
    ['logs', 'syslog', 1_001, 'at most 1,000 log files per type'],
  ];
  it.each(over)('%s: %s count %d is refused naming the limit; the limit itself passes', (kind, type, n, says) => {
    const schema = generateBodySchema(kind);
    const bad = schema.safeParse({ catalog: 'c', counts: { [type]: n } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]).toMatchObject({ path: ['counts', type], message: expect.stringContaining(says) });
    expect(schema.safeParse({ catalog: 'c', counts: { [type]: n - 1 } }).success).toBe(true);
  });

  it('logs: lines_per_file 1–100,000 and days_back 1–365; ai_token_budget 0–10,000,000', () => {
    const logs = generateBodySchema('logs');
    const issue = (body: object) => logs.safeParse({ catalog: 'c', ...body }).error?.issues[0]?.message;
    expect(issue({ lines_per_file: 100_001 })).toContain('at most 100,000 lines per file');
    expect(issue({ lines_per_file: 0 })).toContain('at least 1');
    expect(issue({ days_back: 366 })).toContain('at most 365 days');
    expect(issue({ ai_token_budget: 10_000_001 })).toContain('at most 10,000,000');
    expect(logs.parse({ catalog: 'c' })).toMatchObject({ lines_per_file: 1000, days_back: 7, ai_token_budget: 50_000 });
  });
});

describe('determinism', () => {
  /** sha256 of every file two items of each type make, written to memory. */
  async function hashes(kind: GenerateInput['kind'], seed: number, asOf = AS_OF) {
    const out: Record<string, string> = {};
    for (const type of GENERATOR_TYPES[kind]) {
      const input: GenerateInput = {
        jobId: 'j',
        kind,
        catalog: 'c',
        schema: 's',
        volume: 'v',
        destination: 'volume_with_catalog',
        counts: { [type]: 2 },
        seed,
        asOf,
        ifExists: 'append',
        aiTokenBudget: 0,
        linesPerFile: 50,
        daysBack: 2,
      };
      const io = {
        write: async (rel: string, data: Buffer) => {
          out[rel] = createHash('sha256').update(data).digest('hex');
        },
      };
      await generateChunkItems(input, { type, start: 0, count: 2, seq: 0 }, io, () => undefined);
    }
    return out;
  }

  it.each(GENERATOR_KINDS)(
    '%s: every type gives the same sha256 per file for the same seed and as_of',
    async (kind) => {
      const a = await hashes(kind, 123);
      await new Promise((r) => setTimeout(r, 1100)); // a second later: no clock may leak into the bytes
      const b = await hashes(kind, 123);
      expect(Object.keys(a).length).toBeGreaterThanOrEqual(2 * GENERATOR_TYPES[kind].length);
      expect(b).toEqual(a);
      const other = await hashes(kind, 124);
      for (const [p, h] of Object.entries(other)) expect(a[p.replace('-s124-', '-s123-')]).not.toBe(h);
    },
    60_000,
  );
});
