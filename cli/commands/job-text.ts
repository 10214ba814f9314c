/** The parts of a job record (GET /api/jobs/{id}, or the richer GET /api/clone/{id}) the CLI prints. */
export interface JobRecord {
  job_id: string;
  job_type?: string;
  status: string;
  source_catalog?: string | null;
  destination_catalog?: string | null;
  clone_type?: string | null;
  progress?: { completed: number; total: number; schemas?: string; tables?: string };
  created_at: string;
  completed_at: string | null;
  duration_seconds?: number | null;
  queue_position?: number | null;
  error?: string | null;
  tables_cloned?: number;
  tables_failed?: number;
  tables_skipped?: number;
  views_cloned?: number;
  functions_cloned?: number;
  volumes_cloned?: number;
  bytes_copied?: number;
  files_copied?: number;
  warnings?: string[];
  logs?: string[];
}

export function bytesText(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** The end-of-job summary. */
export function summaryText(j: JobRecord): string {
  const lines = [
    `${j.job_id} ${j.status}: ${what(j)}${j.duration_seconds != null ? ` in ${j.duration_seconds.toFixed(1)} s` : ''}`,
  ];
  if (j.tables_cloned !== undefined) {
    lines.push(
      `  tables     ${j.tables_cloned} cloned, ${j.tables_failed ?? 0} failed, ${j.tables_skipped ?? 0} skipped`,
    );
    lines.push(
      `  objects    ${j.views_cloned ?? 0} views, ${j.functions_cloned ?? 0} functions, ${j.volumes_cloned ?? 0} volumes`,
    );
    lines.push(`  copied     ${bytesText(j.bytes_copied ?? 0)} in ${j.files_copied ?? 0} files`);
  }
  for (const w of j.warnings ?? []) lines.push(`  warning    ${w}`);
  if (j.error) lines.push(`  error      ${j.error}`);
  return lines.join('\n');
}

/** `sales → sales_dev` for a clone, the job type for other jobs. */
function what(j: JobRecord): string {
  return j.source_catalog || j.destination_catalog
    ? `${j.source_catalog ?? '?'} → ${j.destination_catalog ?? '?'}`
    : (j.job_type ?? 'job');
}

/** One line of `lakeward jobs`. */
export function jobLine(j: JobRecord): string {
  const progress = j.progress ? `${j.progress.completed}/${j.progress.total}` : '';
  return [j.job_id, j.status.padEnd(10), what(j), j.clone_type ?? '', progress, j.created_at].join('  ');
}

/** `lakeward job ID`: the record with its log. */
export function jobText(j: JobRecord): string {
  const head = summaryText(j);
  const where = j.status === 'queued' && j.queue_position ? `\n  queue      position ${j.queue_position}` : '';
  const progress =
    j.progress && (j.status === 'running' || j.status === 'cancelling')
      ? `\n  progress   schemas ${j.progress.schemas}, tables ${j.progress.tables}`
      : '';
  const logs = j.logs?.length ? `\nlog:\n${j.logs.map((l) => `  ${l}`).join('\n')}` : '';
  return `${head}${where}${progress}\n  created    ${j.created_at}${j.completed_at ? `\n  completed  ${j.completed_at}` : ''}${logs}`;
}
