import { z } from 'zod';
import { bindParameters, builtinReport, type ParamType } from '../../activities/mdm/logic/report-defs';
import { chartSvg, svgToPng, toCsv, toHtml, toJson, toPdf } from '../../activities/mdm/logic/report-render';
import {
  ReportFormatSchema,
  ReportNameParamsSchema,
  ReportPostBodySchema,
  ReportRunBodySchema,
  ReportRunParamsSchema,
  ReportRunViewSchema,
  ReportSummarySchema,
  type ReportResult,
} from '../../schemas/mdm-reports';
import { getJob, type JobRow } from '../../store/jobs/jobs';
import { recordMdmAudit } from '../../store/mdm/repo';
import type { AppDeps } from '../deps';
import { guardUserSql } from '../governance/sql-guard';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { callerOf } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';
import { route } from '../middleware/route';
import { mdmReportJobType } from './report-job-type';
import { allReports, deleteReport, parseReportDefinition, saveReport } from './reports-service';
import { invalid } from './service';

const summaryOf = (r: Awaited<ReturnType<typeof allReports>>[number]) => ({
  name: r.name,
  title: r.title,
  description: r.description,
  origin: r.origin,
  parameters: r.parameters,
  viz: r.viz ?? null,
});

const day = (d: Date) => d.toISOString().slice(0, 10);

async function reportRun(deps: AppDeps, id: string) {
  const row = await getJob(deps.store.db, id);
  if (!row || row.jobType !== 'mdm_report') throw notFound(`No report run ${id}`);
  return row;
}

const resultOf = (row: JobRow): ReportResult | null => {
  const s = row.summary as (ReportResult & { status?: string }) | null;
  return s && Array.isArray(s.rows) ? s : null;
};

const MEDIA: Record<z.infer<typeof ReportFormatSchema>, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  svg: 'image/svg+xml',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  html: 'text/html; charset=utf-8',
};

/**
 * Reports (`/mdm/reports`): the ten built-ins, custom YAML from config/mdm/reports/ or POSTed; a run is an
 * `mdm_report` job; its result downloads as PDF, PNG, SVG, CSV, JSON or one self-contained HTML file.
 */
export const reportRoutes = [
  route({
    method: 'get',
    path: '/mdm/reports',
    summary: 'Every report: the ten built-ins, config/mdm/reports/*.yaml and those posted',
    response: { description: 'Reports', schema: z.array(ReportSummarySchema) },
    handler: async ({ deps }) => (await allReports(deps.store.db)).map(summaryOf),
  }),
  route({
    method: 'post',
    path: '/mdm/reports',
    summary: 'Save a custom report ({yaml} or JSON: name, title, parameters {type, default}, sql, viz {type, x, y})',
    request: { body: ReportPostBodySchema },
    response: { status: 201, description: 'The report', schema: ReportSummarySchema },
    otherResponses: { 200: { description: 'Replaced', schema: ReportSummarySchema } },
    errors: { 409: 'A config-file report has this name', 422: 'Invalid report (details name each path)' },
    handler: async ({ deps, input: { body }, req, res }) => {
      const def = parseReportDefinition(body);
      const existing = (await allReports(deps.store.db)).find((r) => r.name === def.name);
      if (existing?.origin === 'config')
        throw new HttpError(409, 'CONFLICT', `${def.name} is defined in config/mdm/reports`, [
          { path: 'body.name', message: 'taken by a config file' },
        ]);
      const existed = await saveReport(deps.store.db, def, callerOf(req).name);
      await recordMdmAudit(deps.store.db, {
        actor: callerOf(req).name,
        action: existed ? 'report_updated' : 'report_created',
        objectType: 'report',
        objectId: def.name,
      });
      res.status(existed ? 200 : 201);
      return summaryOf({
        ...def,
        description: def.description ?? null,
        origin: 'api',
        viz: def.viz ?? null,
        sql: def.sql,
      });
    },
  }),
  route({
    method: 'delete',
    path: '/mdm/reports/:name',
    summary: 'Delete a posted report (admin)',
    request: { params: ReportNameParamsSchema },
    response: { description: 'Deleted', schema: z.object({ name: z.string(), deleted: z.literal(true) }) },
    errors: { 404: 'No posted report of this name' },
    handler: async ({ deps, input: { params }, req }) => {
      if (!(await deleteReport(deps.store.db, params.name))) throw notFound(`No posted report ${params.name}`);
      await recordMdmAudit(deps.store.db, {
        actor: callerOf(req).name,
        action: 'report_deleted',
        objectType: 'report',
        objectId: params.name,
      });
      return { name: params.name, deleted: true as const };
    },
  }),
  route({
    method: 'post',
    path: '/mdm/reports/:name/run',
    summary: 'Run a report as an mdm_report job ({from, to, filters {entity_type}, parameters}); answers its report ID',
    role: 'viewer',
    request: { params: ReportNameParamsSchema, body: ReportRunBodySchema },
    response: {
      status: 202,
      description: 'The queued run: report_id is its job id',
      schema: z.object({ report_id: z.string(), job_id: z.string(), status: z.string(), queue_position: z.number() }),
    },
    errors: {
      403: 'An access policy refuses a table the SQL reads',
      404: 'No such report',
      422: 'Bad parameters or dates',
      429: 'Too many runs waiting',
    },
    handler: async ({ deps, input: { params, body }, req, res }) => {
      const report = (await allReports(deps.store.db)).find((r) => r.name === params.name);
      if (!report) throw notFound(`No report ${params.name}`);
      const to = body.to ?? day(new Date());
      const from = body.from ?? day(new Date(Date.parse(`${to}T00:00:00Z`) - 30 * 86_400_000));
      if (from > to)
        throw invalid('INVALID_PERIOD', 'Invalid period', [{ path: 'body.from', message: 'must not be after to' }]);
      let sqlText: string | null = null;
      let values: Record<string, unknown> = {};
      if (report.sql) {
        const typed = report.parameters as Record<string, { type: ParamType; default?: unknown }>;
        const given = { ...(body.parameters ?? {}) };
        for (const [k, v] of Object.entries({ from, to, entity_type: body.filters?.entity_type }))
          if (k in typed && v !== undefined && given[k] === undefined) given[k] = v;
        const bound = bindParameters(report.sql, typed, given);
        if ('problems' in bound)
          throw invalid(
            'INVALID_PARAMETERS',
            'Invalid parameters',
            bound.problems.map((p) => ({ path: `body.parameters.${p.name}`, message: p.message })),
          );
        await guardUserSql(deps, callerOf(req), { sql: bound.sql, kind: 'query', field: `report ${report.name}: sql` });
        sqlText = bound.sql;
        values = bound.values;
      } else if (!builtinReport(report.name)) throw notFound(`No report ${params.name}`);
      const jobId = newJobId('mdm_report');
      const input = {
        jobId,
        report: report.name,
        title: report.title,
        kind: report.sql ? ('sql' as const) : ('builtin' as const),
        sql: sqlText,
        viz: report.viz ?? null,
        parameters: values,
        from,
        to,
        entityType: body.filters?.entity_type ?? null,
        catalog: deps.config.mdm.catalog,
        slaCalendar: deps.config.mdm.sla_calendar,
      };
      const accepted = await submitJob(deps, mdmReportJobType, {
        jobId,
        input,
        createdAt: new Date(),
        row: {
          request: { report: report.name, from, to, filters: body.filters ?? {}, parameters: values },
          user: callerOf(req).name,
        },
      });
      res.status(202);
      return { report_id: jobId, job_id: jobId, status: accepted.status, queue_position: accepted.queue_position };
    },
  }),
  route({
    method: 'get',
    path: '/mdm/reports/runs/:id',
    summary: 'A report run: its status and, once completed, its rows',
    request: { params: ReportRunParamsSchema },
    response: { description: 'The run', schema: ReportRunViewSchema },
    errors: { 404: 'No such run' },
    handler: async ({ deps, input: { params } }) => {
      const row = await reportRun(deps, params.id);
      const r = resultOf(row);
      return {
        report_id: row.jobId,
        report: (row.request as { report?: string } | null)?.report ?? null,
        status: row.status,
        error: row.error ?? null,
        created_at: row.createdAt.toISOString(),
        completed_at: row.completedAt?.toISOString() ?? null,
        result: r
          ? { title: r.title, parameters: r.parameters, columns: r.columns, rows: r.rows, truncated: r.truncated }
          : null,
      };
    },
  }),
  route({
    method: 'get',
    path: '/mdm/reports/runs/:id/download',
    summary: 'Download a completed run: pdf, png or svg (the chart), csv, json or html (self-contained)',
    request: { params: ReportRunParamsSchema, query: z.object({ format: ReportFormatSchema.default('json') }) },
    response: {
      description: 'The file',
      schema: z.string(),
      mediaTypes: ['application/pdf', 'image/png', 'image/svg+xml', 'text/csv', 'application/json', 'text/html'],
    },
    errors: { 404: 'No such run', 409: 'The run has not completed', 422: 'The report has no chart (png, svg)' },
    handler: async ({ deps, input: { params, query }, res }) => {
      const row = await reportRun(deps, params.id);
      const r = resultOf(row);
      if (row.status !== 'completed' || !r)
        throw new HttpError(409, 'NOT_READY', `Report run ${params.id} is ${row.status}`, [
          { path: 'params.id', message: row.status },
        ]);
      const format = query.format;
      const needsChart = format === 'png' || format === 'svg' || format === 'pdf' || format === 'html';
      const svg = needsChart ? await chartSvg(r) : null;
      if ((format === 'png' || format === 'svg') && !svg)
        throw invalid('NO_CHART', 'No chart', [{ path: 'query.format', message: `${r.report} has no viz` }]);
      const body =
        format === 'pdf'
          ? await toPdf(r, svg)
          : format === 'png'
            ? svgToPng(svg as string)
            : format === 'svg'
              ? (svg as string)
              : format === 'csv'
                ? toCsv(r)
                : format === 'html'
                  ? toHtml(r, svg)
                  : toJson(r);
      res
        .status(200)
        .type(MEDIA[format])
        .set('Content-Disposition', `attachment; filename="${r.report}-${row.jobId}.${format}"`)
        .send(body);
      return undefined;
    },
  }),
];
