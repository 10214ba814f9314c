import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A result's rows as JSON text, not jsonb: written once and read back whole, never queried inside, so the server
 * need not parse and re-encode up to 100,000 rows (10,000 rows: 3 ms written and 1 ms read on PGlite, against
 * 10 and 6-9 ms as jsonb).
 */
const jsonRows = customType<{ data: (string | null)[][]; driverData: string }>({
  dataType: () => 'text',
  toDriver: (rows) => JSON.stringify(rows),
  fromDriver: (text) => JSON.parse(text) as (string | null)[][],
});

/**
 * Workbench statements and their results (kept an hour after they end). `rows` holds at most row_limit rows of
 * text values (the Statement Execution API's JSON_ARRAY format); `cancel_requested_at` lets any API process stop
 * a statement another one runs.
 */
export const workbenchStatements = pgTable(
  'workbench_statements',
  {
    id: text('id').primaryKey(),
    caller: text('caller').notNull(),
    statement: text('statement').notNull(),
    catalog: text('catalog'),
    schema: text('schema'),
    state: text('state').notNull(),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    columns: jsonb('columns').$type<{ name: string; type: string }[]>(),
    rows: jsonRows('rows'),
    totalRowCount: integer('total_row_count'),
    truncated: boolean('truncated').notNull().default(false),
    rowLimit: integer('row_limit').notNull(),
    durationMs: integer('duration_ms'),
    /** The notebook cell it ran for, if any (notebook runs show in the caller's history too). */
    source: text('source'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    endedAt: tsz('ended_at'),
    cancelRequestedAt: tsz('cancel_requested_at'),
  },
  (t) => [index('workbench_statements_created_at_idx').on(t.createdAt)],
);

/** Each caller's newest statements (at most 30 kept; the oldest is evicted by the 31st). */
export const workbenchHistory = pgTable(
  'workbench_history',
  {
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity().primaryKey(),
    caller: text('caller').notNull(),
    statementId: text('statement_id').notNull(),
    statement: text('statement').notNull(),
    state: text('state').notNull(),
    rowCount: integer('row_count'),
    durationMs: integer('duration_ms'),
    source: text('source'),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [index('workbench_history_caller_idx').on(t.caller, t.id)],
);

export interface NotebookCell {
  id: string;
  type: 'sql' | 'markdown';
  content: string;
  speaker_notes: string;
  output: Record<string, unknown> | null;
}

/** Notebooks: the current version's cells; every save adds a revision (undo/redo walks them). */
export const notebooks = pgTable('notebooks', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  cells: jsonb('cells').$type<NotebookCell[]>().notNull(),
  version: integer('version').notNull(),
  /** The revision the notebook shows (undo moves it back, redo forward; a save drops revisions after it). */
  revision: integer('revision').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/** Up to 50 saved states per notebook (revision numbers grow; the oldest beyond 50 are dropped). */
export const notebookRevisions = pgTable(
  'notebook_revisions',
  {
    notebookId: text('notebook_id').notNull(),
    revision: integer('revision').notNull(),
    title: text('title').notNull(),
    cells: jsonb('cells').$type<NotebookCell[]>().notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.notebookId, t.revision] })],
);
