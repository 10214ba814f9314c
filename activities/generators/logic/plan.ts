import {
  GENERATOR_LIMITS,
  GENERATOR_TYPES,
  type GenerateInput,
  type GeneratePreview,
  type GeneratorKind,
} from '../../../schemas/generators';

/** Per type: extension, MIME type, the optional library it needs, rough size and speed for the preview. */
export interface TypeFacts {
  extension: string;
  mime: string;
  library: string | null;
  /** Files one item makes (a repository has several). */
  filesPerItem: number;
  /** Bytes of one item (logs: of one line). */
  bytes: number;
  /** Items (logs: lines) a second. */
  perSecond: number;
}

export const TYPE_FACTS: Record<string, TypeFacts> = {
  pdf: { extension: 'pdf', mime: 'application/pdf', library: 'pdfkit', filesPerItem: 1, bytes: 3_000, perSecond: 60 },
  docx: {
    extension: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    library: 'docx',
    filesPerItem: 1,
    bytes: 8_000,
    perSecond: 40,
  },
  pptx: {
    extension: 'pptx',
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    library: 'pptxgenjs',
    filesPerItem: 1,
    bytes: 45_000,
    perSecond: 10,
  },
  xlsx: {
    extension: 'xlsx',
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    library: 'exceljs',
    filesPerItem: 1,
    bytes: 7_000,
    perSecond: 30,
  },
  eml: {
    extension: 'eml',
    mime: 'message/rfc822',
    library: 'nodemailer',
    filesPerItem: 1,
    bytes: 1_200,
    perSecond: 300,
  },
  png: { extension: 'png', mime: 'image/png', library: 'pngjs', filesPerItem: 1, bytes: 20_000, perSecond: 40 },
  wav: { extension: 'wav', mime: 'audio/wav', library: null, filesPerItem: 1, bytes: 16_000, perSecond: 200 },
  mp4: { extension: 'mp4', mime: 'video/mp4', library: 'ffmpeg', filesPerItem: 1, bytes: 30_000, perSecond: 4 },
  article: { extension: 'md', mime: 'text/markdown', library: null, filesPerItem: 1, bytes: 2_500, perSecond: 500 },
  faq: { extension: 'json', mime: 'application/json', library: null, filesPerItem: 1, bytes: 2_000, perSecond: 500 },
  glossary: { extension: 'csv', mime: 'text/csv', library: null, filesPerItem: 1, bytes: 2_000, perSecond: 500 },
  nginx_access: {
    extension: 'log',
    mime: 'text/plain',
    library: null,
    filesPerItem: 1,
    bytes: 190,
    perSecond: 300_000,
  },
  app_json: {
    extension: 'jsonl',
    mime: 'application/x-ndjson',
    library: null,
    filesPerItem: 1,
    bytes: 230,
    perSecond: 250_000,
  },
  syslog: { extension: 'log', mime: 'text/plain', library: null, filesPerItem: 1, bytes: 150, perSecond: 300_000 },
  otel_trace: {
    extension: 'jsonl',
    mime: 'application/x-ndjson',
    library: null,
    filesPerItem: 1,
    bytes: 420,
    perSecond: 150_000,
  },
  python: { extension: 'py', mime: 'text/x-python', library: null, filesPerItem: 6, bytes: 4_000, perSecond: 300 },
  javascript: {
    extension: 'js',
    mime: 'text/javascript',
    library: null,
    filesPerItem: 5,
    bytes: 3_500,
    perSecond: 300,
  },
  java: { extension: 'java', mime: 'text/x-java', library: null, filesPerItem: 5, bytes: 4_500, perSecond: 300 },
};

/** What installs an optional library (npm packages at the version Lakeward uses; ffmpeg from the OS). */
export const INSTALL_COMMANDS: Record<string, string> = {
  pdfkit: 'npm install pdfkit@0.20.2',
  docx: 'npm install docx@9.15.2',
  pptxgenjs: 'npm install pptxgenjs@4.0.1',
  exceljs: 'npm install exceljs@4.4.0',
  nodemailer: 'npm install nodemailer@10.6.0',
  pngjs: 'npm install pngjs@7.0.0',
  ffmpeg: 'apt-get install -y ffmpeg',
};

export const STAGING_FOLDER = '_lakeward_staging';

export function catalogTableName(kind: GeneratorKind): string {
  return `demo_${kind}_catalog`;
}
export function directTableName(kind: GeneratorKind): string {
  return `demo_${kind}`;
}
export function tableNameFor(kind: GeneratorKind, destination: GenerateInput['destination']): string | null {
  if (destination === 'volume') return null;
  return destination === 'direct_table' ? directTableName(kind) : catalogTableName(kind);
}

/** `<type>-s<seed>-<00001>`: an item's base name, the same for the same seed and index. */
export function itemBaseName(type: string, seed: number, index: number): string {
  return `${type}-s${seed}-${String(index + 1).padStart(5, '0')}`;
}

/** The folder of one type's files, relative to the volume root. */
export function volumeTypeFolder(kind: GeneratorKind, type: string): string {
  return `${kind}/${type}`;
}

/** Where a file goes inside the volume: `<kind>/<type>/<name>`. */
export function volumeRelPath(kind: GeneratorKind, type: string, name: string): string {
  return `${volumeTypeFolder(kind, type)}/${name}`;
}

export function volumeFullPath(input: Pick<GenerateInput, 'catalog' | 'schema' | 'volume'>, rel: string): string {
  return `/Volumes/${input.catalog}/${input.schema}/${input.volume}/${rel}`;
}

/** The staging folder of a job's rows inside the volume. */
export function stagingFolder(jobId: string): string {
  return `${STAGING_FOLDER}/${jobId}`;
}

/** Types and counts of a request: counts' keys (or all types), each at its count or the kind's default. */
export function resolveCounts(
  kind: GeneratorKind,
  types: readonly string[] | undefined,
  counts: Record<string, number | undefined> | undefined,
): Record<string, number> {
  const named = types ?? (counts && Object.keys(counts).length > 0 ? Object.keys(counts) : GENERATOR_TYPES[kind]);
  const out: Record<string, number> = {};
  for (const t of GENERATOR_TYPES[kind] as readonly string[])
    if (named.includes(t)) out[t] = counts?.[t] ?? GENERATOR_LIMITS[kind].defaultCount;
  return out;
}

/** Counts given for types the request does not ask for (a 400). */
export function countsOutsideTypes(types: readonly string[] | undefined, counts: Record<string, unknown> | undefined) {
  if (!types || !counts) return [];
  return Object.keys(counts).filter((t) => !types.includes(t));
}

export interface Chunk {
  type: string;
  /** First item index and how many items. */
  start: number;
  count: number;
  /** Position of the chunk in the job (names its staged rows file). */
  seq: number;
}

/** Items per activity: about a few seconds of work each. */
export function chunkSize(kind: GeneratorKind, linesPerFile: number): number {
  if (kind === 'logs') return Math.max(1, Math.min(50, Math.floor(200_000 / linesPerFile)));
  return { documents: 25, media: 10, knowledge: 100, code: 5 }[kind];
}

export function planChunks(kind: GeneratorKind, counts: Record<string, number>, linesPerFile: number): Chunk[] {
  const size = chunkSize(kind, linesPerFile);
  const out: Chunk[] = [];
  for (const [type, n] of Object.entries(counts))
    for (let start = 0; start < n; start += size)
      out.push({ type, start, count: Math.min(size, n - start), seq: out.length });
  return out;
}

/** Files, bytes and a rough time for a request, before anything runs. */
export function preview(
  kind: GeneratorKind,
  input: Pick<GenerateInput, 'counts' | 'destination' | 'linesPerFile' | 'asOf'>,
): GeneratePreview {
  const perType: GeneratePreview['per_type'] = {};
  let files = 0;
  let bytes = 0;
  let seconds = 0;
  let rows = 0;
  for (const [type, count] of Object.entries(input.counts)) {
    const f = TYPE_FACTS[type];
    const lines = kind === 'logs' ? count * input.linesPerFile : count;
    const typeFiles = input.destination === 'direct_table' ? 0 : count * f.filesPerItem;
    const typeBytes =
      input.destination === 'direct_table' ? 0 : lines * f.bytes * (kind === 'logs' ? 1 : f.filesPerItem);
    perType[type] = { count, files: typeFiles, bytes: typeBytes };
    files += typeFiles;
    bytes += typeBytes;
    seconds += lines / f.perSecond;
    if (input.destination === 'direct_table') rows += kind === 'logs' ? lines : count * f.filesPerItem;
    else if (input.destination === 'volume_with_catalog') rows += count * f.filesPerItem;
  }
  return {
    kind,
    files,
    bytes,
    seconds: Math.max(1, Math.ceil(seconds + 2)),
    rows,
    table: tableNameFor(kind, input.destination),
    as_of: input.asOf,
    per_type: perType,
  };
}
