import { createHash } from 'node:crypto';
import type { GenerateInput, GeneratorKind } from '../../schemas/generators';
import { buildRepo } from './logic/code';
import { fileRow } from './logic/columns';
import { buildKnowledgeItem } from './logic/knowledge';
import { itemBaseName, TYPE_FACTS, volumeFullPath, volumeRelPath, volumeTypeFolder, type Chunk } from './logic/plan';
import { itemSeed, Rng } from './logic/rng';
import { buildDocument, type BinaryItem } from './documents';
import { writeLogFiles } from './logs-writer';
import { buildMedia } from './media';

export interface ChunkIo {
  /** Writes a file into the volume (path relative to the volume root). */
  write(rel: string, data: Buffer): Promise<void>;
  /**
   * The folder on this machine that holds a volume path, when the volume is local (null otherwise): log files are
   * then streamed there by the log threads instead of being handed to `write` whole.
   */
  folder?(rel: string): Promise<string | null>;
}

export interface ChunkOutcome {
  files: number;
  bytes: number;
  lines: number;
  rows: Record<string, unknown>[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A file id shaped like a UUID, from the seed, as_of, type, index and part only. */
export function fileIdFor(
  input: Pick<GenerateInput, 'seed' | 'asOf'>,
  kind: string,
  type: string,
  index: number,
  part = 0,
) {
  const h = new Rng(itemSeed(input.seed, input.asOf, `${kind}#id`, `${type}#${part}`, index)).hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function buildSingle(
  kind: GeneratorKind,
  type: string,
  input: GenerateInput,
  index: number,
): Promise<BinaryItem> {
  if (kind === 'documents') return buildDocument(type, input.seed, input.asOf, index);
  if (kind === 'media') return buildMedia(type, input.seed, input.asOf, index);
  const t = buildKnowledgeItem(type, input.seed, input.asOf, index);
  return { title: t.title, summary: t.summary, metadata: t.metadata, data: Buffer.from(t.text, 'utf8') };
}

/**
 * Generates one chunk of items: files written through `io` (unless the destination is the direct table) and the
 * rows the last step commits. Item i of a type always has the same name and bytes, so a retried chunk rewrites
 * the same files.
 */
export async function generateChunkItems(input: GenerateInput, chunk: Chunk, io: ChunkIo, heartbeat: () => void) {
  const kind = input.kind;
  const { type } = chunk;
  const facts = TYPE_FACTS[type];
  const direct = input.destination === 'direct_table';
  const out: ChunkOutcome = { files: 0, bytes: 0, lines: 0, rows: [] };
  const put = async (rel: string, data: Buffer) => {
    if (!direct) {
      await io.write(rel, data);
      out.files += 1;
      out.bytes += data.length;
    }
    heartbeat();
  };
  if (kind === 'logs') {
    const dir = direct ? null : ((await io.folder?.(volumeTypeFolder(kind, type))) ?? null);
    const written = await writeLogFiles({
      type,
      seed: input.seed,
      asOf: input.asOf,
      daysBack: input.daysBack,
      linesPerFile: input.linesPerFile,
      files: chunk.count,
      start: chunk.start,
      keepLines: direct,
      ...(dir
        ? { dir, onFile: heartbeat }
        : { write: (name: string, data: Buffer) => put(volumeRelPath(kind, type, name), data) }),
    });
    for (const f of written) {
      out.lines += f.lines;
      if (dir) {
        out.files += 1;
        out.bytes += f.bytes;
      }
      if (direct) {
        for (const r of f.rows!) out.rows.push(r);
      } else {
        out.rows.push(
          fileRow(input, {
            fileId: fileIdFor(input, kind, type, f.index),
            type,
            name: f.name,
            path: volumeFullPath(input, volumeRelPath(kind, type, f.name)),
            mime: facts.mime,
            size: f.bytes,
            sha256: f.sha256,
            title: `${type} log of ${f.service} (${input.daysBack} days to ${input.asOf})`,
            summary: `${f.lines} ${type} lines from ${f.service} over the ${input.daysBack} days before ${input.asOf}.`,
            metadata: { service: f.service, days_back: String(input.daysBack) },
            lineCount: f.lines,
          }),
        );
      }
    }
    return out;
  }
  for (let index = chunk.start; index < chunk.start + chunk.count; index++) {
    const base = itemBaseName(type, input.seed, index);
    if (kind === 'code') {
      const repo = buildRepo(type, input.seed, input.asOf, index);
      const folder = `${base}-${repo.name.replace(/^repo-\d+-/, '')}`;
      for (let part = 0; part < repo.files.length; part++) {
        const f = repo.files[part];
        const data = Buffer.from(f.text, 'utf8');
        const rel = volumeRelPath(kind, type, `${folder}/${f.path}`);
        await put(rel, data);
        out.rows.push(
          fileRow(input, {
            fileId: fileIdFor(input, kind, type, index, part),
            type,
            name: f.path.split('/').pop()!,
            path: direct ? null : volumeFullPath(input, rel),
            mime: f.path.endsWith(`.${facts.extension}`) ? facts.mime : 'text/plain',
            size: data.length,
            sha256: sha256(data),
            title: repo.title,
            summary: repo.summary,
            metadata: { repository: folder, path_in_repository: f.path, language: type },
          }),
        );
      }
      continue;
    }
    const item = await buildSingle(kind, type, input, index);
    const name = `${base}.${facts.extension}`;
    const rel = volumeRelPath(kind, type, name);
    await put(rel, item.data);
    out.rows.push(
      fileRow(input, {
        fileId: fileIdFor(input, kind, type, index),
        type,
        name,
        path: direct ? null : volumeFullPath(input, rel),
        mime: facts.mime,
        size: item.data.length,
        sha256: sha256(item.data),
        title: item.title,
        summary: item.summary,
        metadata: item.metadata,
      }),
    );
  }
  return out;
}
