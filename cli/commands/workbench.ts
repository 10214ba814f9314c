import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiClient, type ApiOptions } from '../http';
import { followJob } from '../job-follow';
import { lineView } from '../progress';

/**
 * `lakeward sql "<statement>"|history|cancel <id>` and `lakeward notebook list|show|create|export|import|run`:
 * the data workbench through the Statement Execution API shape and the notebook API.
 */

const S = '/api/sql/statements';
const N = '/api/notebooks';
const RUNNING = new Set(['PENDING', 'RUNNING']);
const POLL_MS = 500;
const TYPE_SUFFIX =
  /^(STRING|INT|INTEGER|BIGINT|SMALLINT|TINYINT|DOUBLE|FLOAT|BOOLEAN|DATE|TIMESTAMP|TIMESTAMP_NTZ|DECIMAL(\(\d{1,2}(,\d{1,2})?\))?)$/i;

interface Statement {
  statement_id: string;
  status: { state: string; error?: { error_code: string; message: string } };
  manifest?: {
    schema: { columns: { name: string; type_text: string }[] };
    total_row_count: number;
    total_chunk_count: number;
    truncated: boolean;
  };
  result?: { chunk_index: number; data_array: (string | null)[][] };
}
interface Chunk {
  chunk_index: number;
  data_array: (string | null)[][];
}
interface HistoryEntry {
  statement_id: string;
  statement: string;
  state: string;
  row_count: number | null;
  duration_ms: number | null;
  created_at: string;
}
interface NotebookSummary {
  id: string;
  title: string;
  version: number;
  created_by: string;
  updated_at: string;
  cell_count: number;
}
interface Notebook {
  id: string;
  title: string;
  version: number;
  cells: {
    id: string;
    type: string;
    content: string;
    output: { state: string; row_count: number; error?: string } | null;
  }[];
}

/** `name=value[:TYPE]` → a statement parameter (the suffix counts as a type only when it names one). */
export function parseParam(text: string): { name: string; value: string; type?: string } {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new Error(`--param ${text}: expected name=value[:TYPE]`);
  const name = text.slice(0, eq);
  let value = text.slice(eq + 1);
  const colon = value.lastIndexOf(':');
  if (colon >= 0 && TYPE_SUFFIX.test(value.slice(colon + 1))) {
    const type = value.slice(colon + 1).toUpperCase();
    value = value.slice(0, colon);
    return { name, value, type };
  }
  return { name, value };
}

/** Columns padded to their widest value, NULL shown as NULL. */
export function textTable(header: string[], rows: (string | null)[][]): string {
  const cells = rows.map((r) => r.map((v) => (v === null ? 'NULL' : v.replace(/\s+/g, ' '))));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; NULL is an empty field. */
export function csvText(header: string[], rows: (string | null)[][]): string {
  const field = (v: string | null) => (v === null ? '' : /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Submits, polls until the statement ends (Ctrl-C cancels it on the server), then fetches every chunk. */
async function runStatement(
  api: ApiClient,
  body: Record<string, unknown>,
): Promise<{ st: Statement; rows: (string | null)[][] }> {
  // Listening before the submit: Ctrl-C during the first wait_timeout cancels as soon as the id is known.
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    process.stderr.write('\ncancelling the statement…\n');
  };
  process.on('SIGINT', onSigint);
  let st: Statement;
  let id = '';
  try {
    st = await api.post<Statement>(S, body);
    id = st.statement_id;
    while (RUNNING.has(st.status.state)) {
      if (interrupted) {
        st = await api.post<Statement>(`${S}/${encodeURIComponent(id)}/cancel`);
        if (RUNNING.has(st.status.state)) st = { ...st, status: { state: 'CANCELED' } };
        break;
      }
      await sleep(POLL_MS);
      st = await api.get<Statement>(`${S}/${encodeURIComponent(id)}`);
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (st.status.state !== 'SUCCEEDED') {
    const e = st.status.error;
    throw new Error(`statement ${id} ${st.status.state}${e ? `: ${e.error_code}: ${e.message}` : ''}`);
  }
  const rows = [...(st.result?.data_array ?? [])];
  for (let i = st.result ? 1 : 0; i < (st.manifest?.total_chunk_count ?? 0); i++) {
    const chunk = await api.get<Chunk>(`${S}/${encodeURIComponent(id)}/result/chunks/${i}`);
    rows.push(...chunk.data_array);
  }
  return { st, rows };
}

interface SqlOptions extends ApiOptions {
  catalog?: string;
  schema?: string;
  param: string[];
  limit?: string;
  timeout?: string;
  csv?: boolean;
}

async function sqlAction(first: string, rest: string[], opts: SqlOptions): Promise<void> {
  const api = apiClient(opts);
  if (first === 'history' && rest.length === 0) {
    const { history } = await api.get<{ history: HistoryEntry[] }>('/api/sql/history');
    print(opts, history, (hs) =>
      textTable(
        ['time', 'state', 'rows', 'ms', 'statement'],
        hs.map((x) => [
          x.created_at.replace('T', ' ').slice(0, 19),
          x.state,
          x.row_count === null ? '' : String(x.row_count),
          x.duration_ms === null ? '' : String(x.duration_ms),
          x.statement.replace(/\s+/g, ' ').slice(0, 80),
        ]),
      ),
    );
    return;
  }
  if (first === 'cancel' && rest.length === 1) {
    const st = await api.post<Statement>(`${S}/${encodeURIComponent(rest[0] ?? '')}/cancel`);
    print(opts, st, (x) => `${x.statement_id} ${x.status.state}`);
    return;
  }
  if (rest.length) throw new Error('quote the statement as one argument: lakeward sql "SELECT …"');
  const body = {
    statement: first,
    ...(opts.catalog ? { catalog: opts.catalog } : {}),
    ...(opts.schema ? { schema: opts.schema } : {}),
    parameters: opts.param.map(parseParam),
    ...(opts.limit ? { row_limit: Number(opts.limit) } : {}),
    ...(opts.timeout ? { timeout_seconds: Number(opts.timeout) } : {}),
    wait_timeout: '10s',
  };
  const { st, rows } = await runStatement(api, body);
  const header = st.manifest?.schema.columns.map((c) => c.name) ?? [];
  if (opts.csv) {
    process.stdout.write(csvText(header, rows));
    return;
  }
  if (opts.json) {
    console.log(
      JSON.stringify(
        rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? null]))),
        null,
        2,
      ),
    );
    return;
  }
  const n = st.manifest?.total_row_count ?? rows.length;
  console.log(
    `${textTable(header, rows)}\n(${n} row${n === 1 ? '' : 's'}${st.manifest?.truncated ? ', truncated at the row limit' : ''})`,
  );
}

export function registerWorkbenchCommands(program: Command): void {
  withApiOptions(
    program
      .command('sql')
      .description('Run one read-only SQL statement (or: sql history, sql cancel <statement id>)')
      .argument('<statement>', 'the statement, quoted; or "history", or "cancel"')
      .argument('[rest...]', 'the statement id after "cancel"')
      .option('--catalog <catalog>', 'catalog for names written without one')
      .option('--schema <schema>', 'schema for names written without one')
      .option(
        '--param <name=value[:TYPE]>',
        'a :name parameter (repeatable)',
        (v: string, all: string[]) => [...all, v],
        [],
      )
      .option('--limit <n>', 'row limit (default 10000)')
      .option('--timeout <seconds>', 'statement timeout (default 300)')
      .option('--csv', 'print the rows as CSV'),
  ).action(sqlAction);

  const nb = program.command('notebook').description('SQL notebooks: list, show, create, export, import, run');

  withApiOptions(nb.command('list')).action(async (opts: ApiOptions) => {
    const { notebooks } = await apiClient(opts).get<{ notebooks: NotebookSummary[] }>(N);
    print(opts, notebooks, (ns) =>
      ns.length
        ? textTable(
            ['id', 'version', 'cells', 'updated', 'by', 'title'],
            ns.map((n) => [
              n.id,
              String(n.version),
              String(n.cell_count),
              n.updated_at.slice(0, 19),
              n.created_by,
              n.title,
            ]),
          )
        : 'no notebooks',
    );
  });

  withApiOptions(nb.command('show').argument('<id>')).action(async (id: string, opts: ApiOptions) => {
    const n = await apiClient(opts).get<Notebook>(`${N}/${encodeURIComponent(id)}`);
    print(opts, n, (x) =>
      [
        `${x.title}  (${x.id}, version ${x.version})`,
        ...x.cells.map((c, i) => {
          const out = c.output
            ? `  → ${c.output.state}, ${c.output.row_count} rows${c.output.error ? `: ${c.output.error}` : ''}`
            : '';
          return `\n[${i + 1}] ${c.type} ${c.id}${out}\n${c.content}`;
        }),
      ].join('\n'),
    );
  });

  const created = (opts: ApiOptions) => (n: Notebook) =>
    print(opts, n, (x) => `created notebook ${x.id}  ${x.title}  (${x.cells.length} cells)`);

  withApiOptions(
    nb
      .command('create')
      .argument('<title>')
      .option('--file <notebook.sql>', 'start from a Databricks SQL notebook source file'),
  ).action(async (title: string, opts: ApiOptions & { file?: string }) => {
    const api = apiClient(opts);
    const n = opts.file
      ? await api.post<Notebook>(`${N}/import`, { title, source: readFileSync(opts.file, 'utf8') })
      : await api.post<Notebook>(N, { title, cells: [] });
    created(opts)(n);
  });

  withApiOptions(nb.command('import').argument('<file>').option('--title <title>')).action(
    async (file: string, opts: ApiOptions & { title?: string }) => {
      const n = await apiClient(opts).post<Notebook>(`${N}/import`, {
        source: readFileSync(file, 'utf8'),
        ...(opts.title ? { title: opts.title } : {}),
      });
      created(opts)(n);
    },
  );

  withApiOptions(nb.command('export').argument('<id>').option('-o, --output <file>')).action(
    async (id: string, opts: ApiOptions & { output?: string }) => {
      const data = await apiClient(opts).post<unknown>(`${N}/${encodeURIComponent(id)}/export`);
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      if (opts.output) writeFileSync(opts.output, text);
      else process.stdout.write(text);
    },
  );

  withApiOptions(
    nb.command('run').argument('<id>').option('--wait', 'follow the job until it ends; exit 1 unless it completed'),
  ).action(async (id: string, opts: ApiOptions & { wait?: boolean }) => {
    const api = apiClient(opts);
    const accepted = await api.post<{ job_id: string; status: string }>(`${N}/${encodeURIComponent(id)}/run`, {});
    if (!opts.wait) {
      print(opts, accepted, (a) => `notebook run queued as job ${a.job_id}`);
      return;
    }
    const view = lineView((line) => process.stderr.write(`${line}\n`), false);
    try {
      await followJob(api, opts.apiKey ?? process.env.LAKEWARD_API_KEY, accepted.job_id, view);
    } finally {
      view.stop();
    }
    const job = await api.get<{ job_id: string; status: string; error?: string | null }>(
      `/api/jobs/${encodeURIComponent(accepted.job_id)}`,
    );
    print(opts, job, (j) => `job ${j.job_id} ${j.status}${j.error ? `: ${j.error}` : ''}`);
    if (job.status !== 'completed') process.exitCode = 1;
  });
}
