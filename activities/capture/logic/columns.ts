/** The capture table's columns (Databricks types), in table order; `content` holds the file's bytes. */
export const CAPTURE_COLUMNS: { name: string; type: string }[] = [
  { name: 'capture_id', type: 'string' },
  { name: 'capture_type', type: 'string' },
  { name: 'file_path', type: 'string' },
  { name: 'file_extension', type: 'string' },
  { name: 'size_bytes', type: 'bigint' },
  { name: 'width', type: 'int' },
  { name: 'height', type: 'int' },
  { name: 'duration_ms', type: 'bigint' },
  { name: 'mime_type', type: 'string' },
  { name: 'industry', type: 'string' },
  { name: 'caption', type: 'string' },
  { name: 'alt_text', type: 'string' },
  { name: 'summary', type: 'string' },
  { name: 'tags', type: 'string' },
  { name: 'detected_text', type: 'string' },
  { name: 'scene_category', type: 'string' },
  { name: 'content_full', type: 'string' },
  { name: 'captured_at', type: 'timestamp' },
  { name: 'session_id', type: 'string' },
  { name: 'submitted_by', type: 'string' },
  { name: 'content', type: 'binary' },
  { name: 'metadata_json', type: 'string' },
  { name: 'description_style', type: 'string' },
];

/** The capture columns a table (as DESCRIBE lists it) lacks, in table order; names compare case-insensitively. */
export function missingColumns(existing: string[]): { name: string; type: string }[] {
  const have = new Set(existing.map((c) => c.toLowerCase()));
  return CAPTURE_COLUMNS.filter((c) => !have.has(c.name));
}

/** Every column but `content`: what the recent list reads. */
export const LISTED_COLUMNS = CAPTURE_COLUMNS.filter((c) => c.name !== 'content').map((c) => c.name);

/** description_style: strict unless exactly permissive (anything else is stored as strict). */
export function descriptionStyle(value: unknown): 'strict' | 'permissive' {
  return typeof value === 'string' && value.trim().toLowerCase() === 'permissive' ? 'permissive' : 'strict';
}
