import cliProgress from 'cli-progress';

/** A job event as the WebSocket sends it (see api/jobs/events.ts). */
export interface StreamEvent {
  type: string;
  message?: string;
  [key: string]: unknown;
}

/** Schema and table counts of a running clone, from its events and progress snapshots. */
export class ProgressCounts {
  schemas = { done: 0, total: 0 };
  tables = { ok: 0, failed: 0, skipped: 0, total: 0 };

  get tablesDone(): number {
    return this.tables.ok + this.tables.failed + this.tables.skipped;
  }

  apply(e: StreamEvent): void {
    if (e.type === 'table_finished') {
      if (e.status === 'failed') this.tables.failed++;
      else if (e.status === 'skipped') this.tables.skipped++;
      else this.tables.ok++;
    } else if (e.type === 'schema_finished') {
      this.schemas.done++;
    } else if (e.type === 'progress') {
      const p = e as unknown as { schemas?: { completed: number; total: number }; tables?: { total: number } };
      if (p.schemas) {
        this.schemas.total = Math.max(this.schemas.total, p.schemas.total);
        this.schemas.done = Math.max(this.schemas.done, p.schemas.completed);
      }
      if (p.tables) this.tables.total = Math.max(this.tables.total, p.tables.total);
    }
    this.schemas.total = Math.max(this.schemas.total, this.schemas.done);
    this.tables.total = Math.max(this.tables.total, this.tablesDone);
  }

  text(): string {
    const t = this.tables;
    return `schemas ${this.schemas.done}/${this.schemas.total}, tables ${this.tablesDone}/${t.total} (ok ${t.ok}, failed ${t.failed}, skipped ${t.skipped})`;
  }
}

export interface ProgressView {
  counts: ProgressCounts;
  event(e: StreamEvent): void;
  stop(): void;
}

/** Events worth a line of their own above the bars (or in line mode). */
const NOTABLE = new Set(['status', 'retry', 'warning', 'error', 'completed', 'schema_finished']);

/** Live bars for schemas and tables with ok/failed/skipped counts and ETA (on a terminal). */
export function barView(stream: NodeJS.WriteStream = process.stderr): ProgressView {
  const counts = new ProgressCounts();
  const multibar = new cliProgress.MultiBar(
    {
      stream,
      clearOnComplete: false,
      hideCursor: true,
      etaBuffer: 20,
      format: '{label} |{bar}| {value}/{total} {extra}| ETA {eta_formatted}',
    },
    cliProgress.Presets.shades_classic,
  );
  const schemas = multibar.create(0, 0, { label: 'schemas', extra: '' });
  const tables = multibar.create(0, 0, { label: 'tables ', extra: '' });
  return {
    counts,
    event(e) {
      counts.apply(e);
      if (NOTABLE.has(e.type) && e.message && e.type !== 'schema_finished') multibar.log(`${e.type}: ${e.message}\n`);
      if (e.type === 'table_finished' && e.status === 'failed') multibar.log(`failed: ${e.message ?? ''}\n`);
      schemas.setTotal(counts.schemas.total);
      schemas.update(counts.schemas.done);
      tables.setTotal(counts.tables.total);
      const t = counts.tables;
      tables.update(counts.tablesDone, { extra: `ok ${t.ok} failed ${t.failed} skipped ${t.skipped} ` });
    },
    stop() {
      // Render once more so log lines still buffered by cli-progress reach the terminal.
      (multibar as unknown as { update(): void }).update();
      multibar.stop();
    },
  };
}

/** One line per event, for logs and pipes (stdout not a terminal); `json` prints the raw events. */
export function lineView(write: (line: string) => void, json = false): ProgressView {
  const counts = new ProgressCounts();
  return {
    counts,
    event(e) {
      counts.apply(e);
      if (json) return write(JSON.stringify(e));
      if (e.type === 'progress' || e.type === 'log') return;
      const time = typeof e.ts === 'string' ? e.ts.slice(11, 19) : '';
      const detail = e.type === 'table_finished' ? ` — ${counts.text()}` : '';
      const what = e.type === 'status' && !e.message ? `status ${String(e.status)}` : (e.message ?? e.type);
      write(`${time} ${e.type.padEnd(15)} ${what}${detail}`);
    },
    stop() {},
  };
}
