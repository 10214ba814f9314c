import { checkUserSql } from '../../activities/data-quality/logic/sql-guard';
import { streamingPipeline, type StreamingTable } from '../../activities/generators/logic/streaming';
import { StreamingBodySchema, StreamingResultSchema } from '../../schemas/streaming-generator';
import type { ErrorDetail } from '../../schemas/common';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

/**
 * The streaming clone generator. Each table is checked in the source schema: it must exist (404), a streaming table
 * needs the change data feed (`delta.enableChangeDataFeed = true`) and merge keys that are columns (400 naming
 * `advanced_tables.<i>`), a materialized view's source_sql must be one read-only SELECT.
 */
export const streamingGeneratorRoutes = defineRoutes({
  name: 'streaming-generator',
  tags: ['generators'],
  routes: [
    route({
      method: 'post',
      path: '/streaming-clone-generator/generate',
      summary:
        'A Lakeflow pipeline (schema, not target) keeping a schema clone current: AUTO CDC flows over CDF, materialized views',
      role: 'viewer',
      request: { body: StreamingBodySchema },
      response: { description: 'The pipeline body and its files', schema: StreamingResultSchema },
      errors: { 404: 'A source table does not exist' },
      handler: async ({ deps, input: { body } }) => {
        const ws = await deps.workspaces.default();
        const problems: ErrorDetail[] = [];
        const tables: StreamingTable[] = [];
        for (const [i, raw] of body.advanced_tables.entries()) {
          const t = typeof raw === 'string' ? { name: raw, table_type: 'streaming_table' as const } : raw;
          const at = `body.advanced_tables.${i}`;
          const ref = { catalog: body.source_catalog, schema: body.schema_name, name: t.name };
          if (!(await ws.tableExists(ref)))
            throw new HttpError(404, 'NOT_FOUND', `table ${ref.catalog}.${ref.schema}.${ref.name} does not exist`, [
              { path: at, message: 'no such table in the source schema' },
            ]);
          if (t.table_type === 'materialized_view') {
            const bad = t.source_sql ? checkUserSql(t.source_sql, 'query') : null;
            if (bad) problems.push({ path: `${at}.source_sql`, message: bad });
            tables.push({ name: t.name, table_type: t.table_type, keys: [], source_sql: t.source_sql });
            continue;
          }
          const props = await ws.getProperties(ref);
          if (props['delta.enableChangeDataFeed'] !== 'true')
            problems.push({
              path: at,
              message: `${t.name} has no change data feed (set delta.enableChangeDataFeed = true)`,
            });
          const columns = (await ws.describeTable(ref)).columns.map((c) => c.name);
          const keys = 'keys' in t && t.keys ? t.keys : columns.filter((c) => c.toLowerCase() === 'id');
          const missing = keys.filter((k) => !columns.some((c) => c.toLowerCase() === k.toLowerCase()));
          if (!keys.length) problems.push({ path: `${at}.keys`, message: `${t.name} has no id column: give keys` });
          else if (missing.length)
            problems.push({ path: `${at}.keys`, message: `not columns of ${t.name}: ${missing.join(', ')}` });
          tables.push({ name: t.name, table_type: 'streaming_table', keys });
        }
        const names = tables.map((t) => t.name.toLowerCase());
        names.forEach((n, i) => {
          if (names.indexOf(n) !== i)
            problems.push({ path: `body.advanced_tables.${i}`, message: `${n} is listed twice` });
        });
        if (problems.length)
          throw new HttpError(
            400,
            'VALIDATION_ERROR',
            problems.map((p) => `${p.path}: ${p.message}`).join('; '),
            problems,
          );
        const name = body.pipeline_name ?? `${body.schema_name}_streaming_clone`;
        return streamingPipeline({
          source_catalog: body.source_catalog,
          destination_catalog: body.destination_catalog,
          schema_name: body.schema_name,
          target_schema: body.target_schema ?? body.schema_name,
          pipeline_name: name,
          tables,
          files_root:
            body.files_root ?? `/Workspace/Shared/lakeward/pipelines/${name.replace(/[^A-Za-z0-9_-]+/g, '_')}`,
        });
      },
    }),
  ],
});
