import type { GenerateInput, GeneratorKind } from '../../../schemas/generators';

export interface ColumnSpec {
  name: string;
  type: string;
  nullable?: boolean;
}

/** One row per file of `demo_<kind>_catalog` (and per item of a non-log direct table, with file_path NULL). */
export const FILE_ROW_COLUMNS: ColumnSpec[] = [
  { name: 'file_id', type: 'string', nullable: false },
  { name: 'file_type', type: 'string' },
  { name: 'file_name', type: 'string' },
  { name: 'file_path', type: 'string' },
  { name: 'mime_type', type: 'string' },
  { name: 'size_bytes', type: 'bigint' },
  { name: 'sha256', type: 'string' },
  { name: 'title', type: 'string' },
  { name: 'summary', type: 'string' },
  { name: 'metadata', type: 'map<string,string>' },
  { name: 'seed', type: 'bigint' },
  { name: 'as_of', type: 'date' },
  { name: 'generated_at', type: 'timestamp' },
];

/** The specification's Log line row: one row per line in the direct table of the logs generator. */
export const LOG_LINE_COLUMNS: ColumnSpec[] = [
  { name: 'log_id', type: 'string', nullable: false },
  { name: 'log_type', type: 'string' },
  { name: 'service', type: 'string' },
  { name: 'ts', type: 'timestamp' },
  { name: 'level', type: 'string' },
  { name: 'message', type: 'string' },
  { name: 'attrs', type: 'map<string,string>' },
  { name: 'generated_at', type: 'timestamp' },
];

export function tableColumns(kind: GeneratorKind, destination: GenerateInput['destination']): ColumnSpec[] {
  if (kind === 'logs' && destination === 'direct_table') return LOG_LINE_COLUMNS;
  if (kind === 'logs') return [...FILE_ROW_COLUMNS, { name: 'line_count', type: 'bigint' }];
  return FILE_ROW_COLUMNS;
}

/** A row's generated_at: as_of at midnight UTC (rows, like files, depend on seed and as_of only). */
export function generatedAt(asOf: string): string {
  return `${asOf}T00:00:00.000Z`;
}

export interface FileRowFacts {
  fileId: string;
  type: string;
  name: string;
  path: string | null;
  mime: string;
  size: number;
  sha256: string;
  title: string;
  summary: string;
  metadata: Record<string, string>;
  lineCount?: number;
}

export function fileRow(input: Pick<GenerateInput, 'seed' | 'asOf'>, f: FileRowFacts): Record<string, unknown> {
  return {
    file_id: f.fileId,
    file_type: f.type,
    file_name: f.name,
    file_path: f.path,
    mime_type: f.mime,
    size_bytes: f.size,
    sha256: f.sha256,
    title: f.title,
    summary: f.summary,
    metadata: f.metadata,
    seed: input.seed,
    as_of: input.asOf,
    generated_at: generatedAt(input.asOf),
    ...(f.lineCount === undefined ? {} : { line_count: f.lineCount }),
  };
}
