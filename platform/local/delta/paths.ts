import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const LOG_DIR = '_delta_log';

export function logDir(tableDir: string): string {
  return path.join(tableDir, LOG_DIR);
}

export function commitFileName(version: number): string {
  return `${String(version).padStart(20, '0')}.json`;
}

export function checkpointFileName(version: number): string {
  return `${String(version).padStart(20, '0')}.checkpoint.parquet`;
}

export const COMMIT_RE = /^(\d{20})\.json$/;
export const CHECKPOINT_RE = /^(\d{20})\.checkpoint\.parquet$/;

/** Log paths are RFC 2396 URI-encoded; each segment is encoded, `/` kept (what Spark and delta-rs decode). */
export function encodeRelative(relative: string): string {
  return relative
    .split(path.sep)
    .map((seg) => encodeURIComponent(seg).replace(/%3D/g, '='))
    .join('/');
}

export function isAbsoluteUri(logPath: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(logPath);
}

/** A log path (relative or file:// URI) → absolute filesystem path. */
export function resolveLogPath(tableDir: string, logPath: string): string {
  if (isAbsoluteUri(logPath)) return fileURLToPath(logPath);
  return path.join(tableDir, ...logPath.split('/').map((seg) => decodeURIComponent(seg)));
}

/** Absolute filesystem path → file:// URI as written into a shallow clone's log. */
export function fileUri(absolutePath: string): string {
  return pathToFileURL(absolutePath).href;
}

/** Unique data file name in the Spark convention. */
export function dataFileName(uuid: string): string {
  return `part-00000-${uuid}.c000.snappy.parquet`;
}
