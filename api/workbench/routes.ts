import { z } from 'zod';
import { chunkOf } from '../../activities/workbench/logic/result-text';
import {
  ChunkResponseSchema,
  HistoryResponseSchema,
  NotebookImportSchema,
  NotebookInputSchema,
  NotebookListSchema,
  NotebookSchema,
  StatementRequestSchema,
  StatementResponseSchema,
} from '../../schemas/workbench';
import { listNotebooks } from '../../store/workbench/notebooks';
import { historyOf } from '../../store/workbench/statements';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { callerOf } from '../middleware/auth';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { notebookRunJobType } from './job-type';
import {
  create,
  exportSource,
  ifMatchOf,
  importSource,
  notebookOrThrow,
  notebookView,
  remove,
  runCell,
  step,
  update,
} from './notebooks';
import { StatementRunner, unsavedEnds } from './statement-runner';
import { cancelStatement, checkedStatement, statementOf, submitStatement, viewOf } from './statements';

const StatementIdParams = z.object({ statementId: z.string().min(1).max(64) });
const NotebookIdParams = z.object({ id: z.string().min(1).max(64) });
const RunOptionsSchema = z.object({
  row_limit: z.number().int().min(1).max(100_000).default(10_000),
  timeout_seconds: z.number().int().min(1).max(3600).default(300),
});

const statementRoutes = [
  route({
    method: 'post',
    path: '/sql/statements',
    role: 'viewer',
    summary: 'Run one read-only SQL statement (Statement Execution API shape)',
    request: { body: StatementRequestSchema },
    response: {
      description: 'The statement: its state, and once it succeeded the manifest and first chunk',
      schema: StatementResponseSchema,
    },
    errors: { 403: 'A table it reads is outside the caller’s access policies' },
    handler: ({ deps, state, req, input }) =>
      submitStatement(deps, state as StatementRunner, req, callerOf(req), input.body),
  }),
  route({
    method: 'get',
    path: '/sql/statements/:statementId',
    summary: 'A statement’s state and result (kept an hour after it ends)',
    request: { params: StatementIdParams },
    response: { description: 'The statement', schema: StatementResponseSchema },
    errors: { 404: 'No such statement of this caller, or its result expired' },
    handler: async ({ deps, req, input }) => viewOf(await statementOf(deps, callerOf(req), input.params.statementId)),
  }),
  route({
    method: 'get',
    path: '/sql/statements/:statementId/result/chunks/:chunkIndex',
    summary: 'One chunk of a succeeded statement’s result (1,000 rows a chunk)',
    request: { params: StatementIdParams.extend({ chunkIndex: z.coerce.number().int().min(0) }) },
    response: { description: 'The chunk', schema: ChunkResponseSchema },
    errors: { 404: 'No such statement or chunk' },
    handler: async ({ deps, req, input }) => {
      const row = await statementOf(deps, callerOf(req), input.params.statementId);
      const chunk = row.state === 'SUCCEEDED' && row.rows ? chunkOf(row.rows, input.params.chunkIndex) : null;
      if (!chunk) {
        throw new HttpError(404, 'NOT_FOUND', `statement ${row.id} has no chunk ${input.params.chunkIndex}`, [
          {
            path: 'params.chunkIndex',
            message: row.state === 'SUCCEEDED' ? 'out of range' : `statement is ${row.state}`,
          },
        ]);
      }
      return chunk;
    },
  }),
  route({
    method: 'post',
    path: '/sql/statements/:statementId/cancel',
    role: 'viewer',
    summary: 'Cancel a running statement (a finished one is left as it is)',
    request: { params: StatementIdParams },
    response: { description: 'The statement after the cancel', schema: StatementResponseSchema },
    errors: { 404: 'No such statement of this caller' },
    handler: ({ deps, state, req, input }) =>
      cancelStatement(deps, state as StatementRunner, callerOf(req), input.params.statementId),
  }),
  route({
    method: 'get',
    path: '/sql/history',
    summary: 'The caller’s newest 30 statements, notebook cells included',
    response: { description: 'Newest first', schema: HistoryResponseSchema },
    handler: async ({ deps, req }) => {
      // Ends still being written, taken before the read: an end whose write commits during the read is then
      // either in this copy or already visible to the query (the write commits before it leaves the map).
      const ends = unsavedEnds();
      return {
        history: (await historyOf(deps.store.db, callerOf(req).name)).map((h) => {
          // A statement whose end is still being written: its end as it will be stored.
          const end = h.state === 'RUNNING' ? ends.get(h.statementId) : undefined;
          return {
            statement_id: h.statementId,
            statement: h.statement,
            state: (end?.state ?? h.state) as z.infer<typeof HistoryResponseSchema>['history'][number]['state'],
            row_count: end ? end.totalRowCount : h.rowCount,
            duration_ms: end ? end.durationMs : h.durationMs,
            source: h.source,
            created_at: h.createdAt.toISOString(),
          };
        }),
      };
    },
  }),
];

const notebookRoutes = [
  route({
    method: 'get',
    path: '/notebooks',
    summary: 'List notebooks, newest change first',
    response: { description: 'Notebooks', schema: NotebookListSchema },
    handler: async ({ deps }) => ({
      notebooks: (await listNotebooks(deps.store.db)).map((n) => ({
        id: n.id,
        title: n.title,
        version: n.version,
        created_by: n.createdBy,
        updated_at: n.updatedAt.toISOString(),
        cell_count: n.cells.length,
      })),
    }),
  }),
  route({
    method: 'post',
    path: '/notebooks',
    summary: 'Create a notebook',
    request: { body: NotebookInputSchema },
    response: { status: 201, description: 'Created', schema: NotebookSchema },
    handler: ({ deps, req, input }) => create(deps, callerOf(req), input.body),
  }),
  route({
    method: 'post',
    path: '/notebooks/import',
    summary: 'Create a notebook from a Databricks SQL notebook source file',
    request: { body: NotebookImportSchema },
    response: { status: 201, description: 'Created', schema: NotebookSchema },
    handler: ({ deps, req, input }) => importSource(deps, callerOf(req), input.body),
  }),
  route({
    method: 'get',
    path: '/notebooks/:id',
    summary: 'A notebook with its cells and outputs',
    request: { params: NotebookIdParams },
    response: { description: 'The notebook', schema: NotebookSchema },
    errors: { 404: 'No such notebook' },
    handler: async ({ deps, input }) => notebookView(deps, await notebookOrThrow(deps, input.params.id)),
  }),
  route({
    method: 'put',
    path: '/notebooks/:id',
    summary: 'Save a notebook (If-Match: <version> required; a stale version is a 409)',
    request: { params: NotebookIdParams, body: NotebookInputSchema },
    response: { description: 'Saved (an unchanged save adds no revision)', schema: NotebookSchema },
    errors: { 404: 'No such notebook', 409: 'If-Match missing or not the current version' },
    handler: ({ deps, req, input }) => update(deps, input.params.id, ifMatchOf(req), input.body),
  }),
  route({
    method: 'delete',
    path: '/notebooks/:id',
    role: 'editor',
    summary: 'Delete a notebook and its revisions',
    request: { params: NotebookIdParams },
    response: { description: 'Deleted', schema: z.object({ deleted: z.string() }) },
    errors: { 404: 'No such notebook' },
    handler: async ({ deps, input }) => {
      await remove(deps, input.params.id);
      return { deleted: input.params.id };
    },
  }),
  route({
    method: 'post',
    path: '/notebooks/:id/undo',
    summary: 'Step back one saved revision (50 are kept)',
    request: { params: NotebookIdParams },
    response: { description: 'The notebook as it was', schema: NotebookSchema },
    errors: { 404: 'No such notebook', 409: 'Nothing to undo' },
    handler: ({ deps, input }) => step(deps, input.params.id, -1),
  }),
  route({
    method: 'post',
    path: '/notebooks/:id/redo',
    summary: 'Step forward again after an undo',
    request: { params: NotebookIdParams },
    response: { description: 'The notebook', schema: NotebookSchema },
    errors: { 404: 'No such notebook', 409: 'Nothing to redo' },
    handler: ({ deps, input }) => step(deps, input.params.id, 1),
  }),
  route({
    method: 'post',
    path: '/notebooks/:id/export',
    role: 'viewer',
    summary: 'The notebook as a Databricks SQL notebook source file',
    request: { params: NotebookIdParams },
    response: { description: 'notebook.sql', schema: z.string(), mediaTypes: ['text/plain'] },
    errors: { 404: 'No such notebook' },
    handler: async ({ deps, res, input }) => {
      const nb = await notebookOrThrow(deps, input.params.id);
      const name = nb.title.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'notebook';
      res
        .status(200)
        .type('text/plain; charset=utf-8')
        .setHeader('Content-Disposition', `attachment; filename="${name}.sql"`);
      res.send(exportSource(nb));
      return undefined;
    },
  }),
  route({
    method: 'post',
    path: '/notebooks/:id/cells/:cellId/run',
    summary: 'Run one SQL cell and store its output (state, columns, the first 100 rows)',
    request: { params: NotebookIdParams.extend({ cellId: z.string().min(1).max(64) }), body: RunOptionsSchema },
    response: {
      description: 'The statement and the notebook with the cell’s output',
      schema: z.object({ statement: StatementResponseSchema, notebook: NotebookSchema.nullable() }),
    },
    errors: {
      403: 'The cell reads a table outside the caller’s access policies',
      404: 'No such notebook or cell',
      422: 'A markdown cell',
    },
    handler: ({ deps, state, req, input }) =>
      runCell(deps, state as StatementRunner, req, callerOf(req), input.params.id, input.params.cellId, input.body),
  }),
  route({
    method: 'post',
    path: '/notebooks/:id/run',
    summary: 'Run every SQL cell in order as a job (notebook_run); the first failure skips the rest',
    request: { params: NotebookIdParams, body: RunOptionsSchema },
    response: { status: 202, description: 'The job', schema: z.object({ job_id: z.string(), status: z.string() }) },
    errors: {
      403: 'A cell reads a table outside the caller’s access policies',
      404: 'No such notebook',
      429: 'Queue full',
    },
    handler: async ({ deps, req, input }) => {
      const nb = await notebookOrThrow(deps, input.params.id);
      const caller = callerOf(req);
      const cells = [];
      for (const c of nb.cells.filter((x) => x.type === 'sql' && x.content.trim() !== '')) {
        const { sql } = await checkedStatement(
          deps,
          caller,
          { statement: c.content, parameters: [] },
          `notebook.cells.${c.id}`,
        );
        cells.push({ id: c.id, content: c.content, sql });
      }
      const jobId = newJobId('notebook_run');
      const jobInput = {
        jobId,
        notebookId: nb.id,
        caller: caller.name,
        cells,
        rowLimit: input.body.row_limit,
        timeoutSeconds: input.body.timeout_seconds,
      };
      await submitJob(deps, notebookRunJobType, {
        jobId,
        input: jobInput,
        createdAt: new Date(),
        row: { request: { notebook_id: nb.id, cells: cells.length } },
      });
      return { job_id: jobId, status: 'queued' };
    },
  }),
];

export const workbenchRoutes = defineRoutes<StatementRunner>({
  name: 'workbench',
  state: (deps) => new StatementRunner(deps),
  routes: [...statementRoutes, ...notebookRoutes],
});
