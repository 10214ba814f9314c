import { z } from 'zod';
import { IdentifierSchema, PrintableTextSchema, anyCasePattern } from './common';

/**
 * Workbench shapes. Statements follow Databricks' Statement Execution API (`/api/2.0/sql/statements`): the same
 * request fields, states, manifest and JSON_ARRAY result (every value as text, NULL as null), so a client written
 * for one works against the other. Notebooks export to and import from Databricks' SQL notebook source format.
 */

export const STATEMENT_STATES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'CLOSED'] as const;
export const StatementStateSchema = z.enum(STATEMENT_STATES);
export type StatementState = z.infer<typeof StatementStateSchema>;

/** Rows per result chunk (`GET …/result/chunks/{n}`). */
export const CHUNK_ROWS = 1000;

const WAIT_TIMEOUT = /^(\d{1,2})s$/;

export const StatementParameterSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be a SQL name (letters, digits, _)'),
  value: z.string().max(100_000).nullable().default(null),
  type: z
    .string()
    .regex(
      anyCasePattern(
        String.raw`^(STRING|INT|INTEGER|BIGINT|SMALLINT|TINYINT|DOUBLE|FLOAT|BOOLEAN|DATE|TIMESTAMP|TIMESTAMP_NTZ|DECIMAL(\(\d{1,2}(,\d{1,2})?\))?)$`,
      ),
      'must be STRING, INT, BIGINT, SMALLINT, TINYINT, DOUBLE, FLOAT, BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ or DECIMAL(p,s)',
    )
    .optional(),
});

export const StatementRequestSchema = z.object({
  statement: PrintableTextSchema.pipe(z.string().min(1).max(100_000)).meta({
    description: 'One read-only statement: SELECT, WITH, VALUES, SHOW, DESCRIBE or EXPLAIN; `:name` marks a parameter',
    example: 'SELECT * FROM demo_sales.sales.orders WHERE amount > :min',
  }),
  catalog: IdentifierSchema.optional().meta({ description: 'Catalog for names written without one' }),
  schema: IdentifierSchema.optional().meta({ description: 'Schema for names written without one (needs catalog)' }),
  parameters: z.array(StatementParameterSchema).max(256).default([]),
  row_limit: z.number().int().min(1).max(100_000).default(10_000),
  wait_timeout: z
    .string()
    .regex(WAIT_TIMEOUT, 'must be "0s" or between "5s" and "50s"')
    .refine((s) => {
      const n = Number(WAIT_TIMEOUT.exec(s)?.[1]);
      return n === 0 || (n >= 5 && n <= 50);
    }, 'must be "0s" or between "5s" and "50s"')
    .default('10s'),
  timeout_seconds: z.number().int().min(1).max(3600).default(300),
});
export type StatementRequest = z.infer<typeof StatementRequestSchema>;

const ColumnSchema = z.object({
  name: z.string(),
  type_name: z.string(),
  type_text: z.string(),
  position: z.number().int(),
});

export const StatementResponseSchema = z.object({
  statement_id: z.string(),
  status: z.object({
    state: StatementStateSchema,
    error: z.object({ error_code: z.string(), message: z.string() }).optional(),
  }),
  manifest: z
    .object({
      format: z.literal('JSON_ARRAY'),
      schema: z.object({ column_count: z.number().int(), columns: z.array(ColumnSchema) }),
      total_row_count: z.number().int(),
      total_chunk_count: z.number().int(),
      chunks: z.array(
        z.object({ chunk_index: z.number().int(), row_offset: z.number().int(), row_count: z.number().int() }),
      ),
      truncated: z.boolean(),
    })
    .optional(),
  result: z
    .object({
      chunk_index: z.number().int(),
      row_offset: z.number().int(),
      row_count: z.number().int(),
      data_array: z.array(z.array(z.string().nullable())),
      next_chunk_index: z.number().int().optional(),
    })
    .optional(),
});
export type StatementResponse = z.infer<typeof StatementResponseSchema>;

export const ChunkResponseSchema = z.object({
  chunk_index: z.number().int(),
  row_offset: z.number().int(),
  row_count: z.number().int(),
  data_array: z.array(z.array(z.string().nullable())),
  next_chunk_index: z.number().int().optional(),
});

export const HistoryEntrySchema = z.object({
  statement_id: z.string(),
  statement: z.string(),
  state: StatementStateSchema,
  row_count: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  source: z.string().nullable().meta({ description: 'notebook:<id>/<cell id> for a notebook cell, null otherwise' }),
  created_at: z.string(),
});
export const HistoryResponseSchema = z.object({ history: z.array(HistoryEntrySchema) });

// ---- notebooks -------------------------------------------------------------------------------------------

export const CellTypeSchema = z.enum(['sql', 'markdown']);
const CellIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, - or _');

export const CellOutputSchema = z.object({
  statement_id: z.string(),
  state: StatementStateSchema,
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.string().nullable())).meta({ description: 'The first 100 rows' }),
  row_count: z.number().int(),
  truncated: z.boolean(),
  error: z.string().optional(),
  ran_at: z.string(),
});

export const CellInputSchema = z.object({
  id: CellIdSchema.optional().meta({ description: 'Kept when given; a new cell gets one' }),
  type: CellTypeSchema.default('sql'),
  content: z.string().max(100_000).default(''),
  speaker_notes: z.string().max(20_000).default(''),
});
export const CellSchema = z.object({
  id: z.string(),
  type: CellTypeSchema,
  content: z.string(),
  speaker_notes: z.string(),
  output: CellOutputSchema.nullable(),
});

export const NotebookInputSchema = z.object({
  title: PrintableTextSchema.pipe(z.string().min(1).max(200)),
  cells: z.array(CellInputSchema).max(500).default([]),
});
export const NotebookSchema = z.object({
  id: z.string(),
  title: z.string(),
  cells: z.array(CellSchema),
  version: z.number().int(),
  can_undo: z.boolean(),
  can_redo: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Notebook = z.infer<typeof NotebookSchema>;
export const NotebookSummarySchema = NotebookSchema.pick({
  id: true,
  title: true,
  version: true,
  created_by: true,
  updated_at: true,
}).extend({ cell_count: z.number().int() });
export const NotebookListSchema = z.object({ notebooks: z.array(NotebookSummarySchema) });

export const NotebookImportSchema = z.object({
  title: PrintableTextSchema.pipe(z.string().min(1).max(200)).optional().meta({
    description: 'Default: the first markdown heading, else "Imported notebook"',
  }),
  source: z.string().min(1).max(2_000_000).meta({ description: 'A Databricks SQL notebook source file' }),
});

export const NotebookRunInputSchema = z.object({
  jobId: z.string(),
  notebookId: z.string(),
  caller: z.string(),
  /** The SQL cells to run, in order (a snapshot taken when the run was asked for). */
  cells: z.array(z.object({ id: z.string(), content: z.string(), sql: z.string() })),
  rowLimit: z.number().int(),
  timeoutSeconds: z.number().int(),
});
export type NotebookRunInput = z.infer<typeof NotebookRunInputSchema>;
