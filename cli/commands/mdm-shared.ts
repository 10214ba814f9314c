import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { apiClient, type ApiOptions } from '../http';

/** What every `lakeward mdm …` command shares: the API prefix, tables, documents and job polling. */

export const M = '/api/mdm';

/** A JSON or YAML file (`-` reads standard input). */
export function readDocument(file: string): unknown {
  return parseYaml(readFileSync(file === '-' ? 0 : file, 'utf8'));
}

/** Columns padded to their widest cell; a null cell shows `-`. */
export function table(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (c: string | number | null | undefined) => String(c ?? '-');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => cell(r[i]).length)));
  const line = (cells: (string | number | null | undefined)[]) =>
    cells
      .map((c, i) => cell(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** A repeatable option's values. */
export const collect = (v: string, prev: string[]) => [...prev, v];

/** `name=value` options as an object (an error names the option when one has no `=`). */
export const pairs = (list: string[], what: string) =>
  Object.fromEntries(
    list.map((kv) => {
      const i = kv.indexOf('=');
      if (i < 1) throw new Error(`${what} must be name=value, not ${kv}`);
      return [kv.slice(0, i), kv.slice(i + 1)];
    }),
  );

export interface Accepted {
  job_id: string;
  message: string;
}

export interface JobView {
  job_id: string;
  status: string;
  error: string | null;
  completed_at: string | null;
  result: Record<string, unknown> | null;
}

/** Polls a job until it completes (backing off to 2 s). */
export async function waitForJob(opts: ApiOptions, jobId: string): Promise<JobView> {
  const api = apiClient(opts);
  for (let delay = 200; ; delay = Math.min(delay * 2, 2000)) {
    const job = await api.get<JobView>(`/api/jobs/${encodeURIComponent(jobId)}`);
    if (job.completed_at) return job;
    await new Promise((r) => setTimeout(r, delay));
  }
}
