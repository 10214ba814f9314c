import type { SqlRows, SqlSession, StreamingOptions } from '../../platform/databricks/session/sql-session';

/** A reply for statements starting with `prefix` (first match wins); an Error reply is thrown. */
export type Script = [prefix: string, reply: Partial<SqlRows> | Error][];

/**
 * Records every statement the adapter sends and answers from a script, in place of the
 * `@databricks/sql` session. Statements without a scripted reply get an empty result.
 */
export class RecordingSqlSession implements SqlSession {
  readonly statements: string[] = [];
  closed = false;

  constructor(private readonly script: Script = []) {}

  async executeStatement(sql: string): Promise<SqlRows> {
    this.statements.push(sql);
    const hit = this.script.find(([prefix]) => sql.startsWith(prefix));
    const reply = hit?.[1];
    if (reply instanceof Error) throw reply;
    const rows = reply?.rows ?? [];
    const columns = reply?.columns ?? Object.keys(rows[0] ?? {}).map((name) => ({ name, type: 'string' }));
    return { columns, rows };
  }

  /** Streamed statements with the parameters they were sent with (the scripted reply's rows, capped). */
  readonly streamed: { sql: string; parameters: StreamingOptions['parameters'] }[] = [];

  async executeStreaming(sql: string, opts: StreamingOptions): Promise<SqlRows & { truncated: boolean }> {
    this.streamed.push({ sql, parameters: opts.parameters });
    const r = await this.executeStatement(sql);
    return { ...r, rows: r.rows.slice(0, opts.rowLimit), truncated: r.rows.length > opts.rowLimit };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
