import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Independent readers for the conversion tests: pyiceberg (test/convert/pyiceberg_probe.py). */

const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const PROBE = path.resolve(__dirname, 'pyiceberg_probe.py');

/** The newest metadata file of an Iceberg table folder (what pyiceberg's StaticTable opens). */
export function latestMetadata(dir: string): string {
  const hint = readFileSync(path.join(dir, 'metadata', 'version-hint.text'), 'utf8').trim();
  return path.join(dir, 'metadata', `v${hint}.metadata.json`);
}

export function pyiceberg(dir: string, snapshot?: number) {
  const args = [PROBE, latestMetadata(dir), ...(snapshot === undefined ? [] : [String(snapshot)])];
  return JSON.parse(execFileSync(PYTHON, args, { encoding: 'utf8' })) as {
    schema: { id: number; name: string; type: string; required: boolean }[];
    rows: Record<string, string | null>[];
    snapshots: number[];
  };
}

const canon = (v: unknown) => (v === null ? null : /^-?\d+(\.\d+)?$/.test(String(v)) ? String(Number(v)) : String(v));

/** Rows as text with numbers canonicalised (10.50 and 10.5 alike), sorted one way: compares ours and pyiceberg's. */
export const asText = (rows: Record<string, unknown>[]) =>
  rows
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, canon(v)])))
    .sort((a, b) => JSON.stringify(a, Object.keys(a).sort()).localeCompare(JSON.stringify(b, Object.keys(b).sort())));
