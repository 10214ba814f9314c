import { parseFqn } from '../../platform/identifiers';
import {
  ImpactSchema,
  RootCauseQuerySchema,
  RootCauseSchema,
  TableFqnParamsSchema,
} from '../../schemas/data-quality-ops';
import { listAnomalies } from '../../store/data-quality/ops';
import { impact, lineage } from '../analysis/lineage-service';
import { CatalogReader } from '../analysis/reader';
import type { AppDeps } from '../deps';
import { route } from '../middleware/route';
import { dqWorkspace } from './checks-service';

const DQ = '/data-quality';
const RISK = { none: 'low', low: 'low', medium: 'medium', high: 'high', critical: 'high' } as const;
/** Operations in a Delta history that change a table's schema. */
const SCHEMA_OPS = /COLUMN|REPLACE TABLE|ALTER|SCHEMA|CREATE TABLE/i;

async function readerOf(deps: AppDeps, tableFqn: string) {
  const ref = parseFqn(tableFqn);
  const r = CatalogReader.for(deps, await dqWorkspace(deps));
  await r.ws.describeTable(ref); // 404 for a missing table
  return { r, ref };
}

type Cause = {
  type: 'correlated_anomalies' | 'upstream_anomaly' | 'freshness_gap' | 'schema_change';
  confidence: number;
  description: string;
  details: Record<string, unknown>[];
};

export const impactRoutes = [
  route({
    method: 'get',
    path: `${DQ}/impact/:table_fqn`,
    summary:
      'Downstream tables, views and referencing jobs of a table (the analysis lineage), total_affected, risk_level',
    request: { params: TableFqnParamsSchema },
    response: { description: 'The impact', schema: ImpactSchema },
    errors: { 404: 'No such table' },
    handler: async ({ deps, input: { params } }) => {
      const { r, ref } = await readerOf(deps, params.table_fqn);
      const i = await impact(r, deps.store.db, { catalog: ref.catalog, schema: ref.schema, table: ref.name });
      const views = i.downstream_views.map((v) => {
        const [catalog, schema, view] = v.split('.');
        return { catalog, schema, view };
      });
      const jobs = i.referencing_jobs.map((j) => ({ job_name: `${j.job_type} ${j.status}`, job_id: j.job_id }));
      return {
        table_fqn: params.table_fqn,
        downstream_tables: i.downstream_tables,
        downstream_views: views,
        referencing_jobs: jobs,
        total_affected: i.downstream_tables.length + views.length + jobs.length,
        risk_level: RISK[i.risk_level],
        source: 'lineage: view and function definitions, recorded clones, Databricks system lineage when available',
      };
    },
  }),
  route({
    method: 'get',
    path: `${DQ}/root-cause/:table_fqn`,
    summary: "Probable causes of a table's data-quality problems in the last `hours`, most confident first",
    request: { params: TableFqnParamsSchema, query: RootCauseQuerySchema },
    response: { description: 'Probable causes', schema: RootCauseSchema },
    errors: { 404: 'No such table' },
    handler: async ({ deps, input: { params, query } }) => {
      const { r, ref } = await readerOf(deps, params.table_fqn);
      const since = new Date(Date.now() - query.hours * 3_600_000);
      const causes: Cause[] = [];
      const own = await listAnomalies(deps.store.db, { tableFqn: params.table_fqn, since, limit: 100 });
      if (own.length > 1)
        causes.push({
          type: 'correlated_anomalies',
          confidence: Math.min(0.95, 0.6 + 0.1 * own.length),
          description: `${own.length} anomalies on ${params.table_fqn} in the last ${query.hours} h: ${[...new Set(own.map((a) => `${a.columnName ? `${a.columnName}.` : ''}${a.metric}`))].join(', ')}`,
          details: own
            .slice(0, 5)
            .map((a) => ({ anomaly_id: a.anomalyId, metric: a.metric, column: a.columnName, severity: a.severity })),
        });
      const up = (await lineage(r, deps.store.db, ref.catalog, params.table_fqn)).upstream;
      for (const u of up.slice(0, 20)) {
        const a = await listAnomalies(deps.store.db, { tableFqn: u, since, limit: 5 });
        if (a.length)
          causes.push({
            type: 'upstream_anomaly',
            confidence: 0.75,
            description: `upstream ${u} had ${a.length} anomal${a.length === 1 ? 'y' : 'ies'} in the last ${query.hours} h`,
            details: a.map((x) => ({ table_fqn: u, anomaly_id: x.anomalyId, metric: x.metric, severity: x.severity })),
          });
      }
      const history = await r.ws.tableHistory(ref, 50);
      const last = history[0];
      if (last && Date.parse(last.timestamp) < since.getTime())
        causes.push({
          type: 'freshness_gap',
          confidence: 0.5,
          description: `${params.table_fqn} has not been written for more than ${query.hours} h (last commit ${last.timestamp})`,
          details: [{ version: last.version, timestamp: last.timestamp, operation: last.operation }],
        });
      const changes = history.filter((e) => Date.parse(e.timestamp) >= since.getTime() && SCHEMA_OPS.test(e.operation));
      if (changes.length)
        causes.push({
          type: 'schema_change',
          confidence: 0.6,
          description: `${changes.length} schema change(s) of ${params.table_fqn} in the last ${query.hours} h: ${[...new Set(changes.map((c) => c.operation))].join(', ')}`,
          details: changes
            .slice(0, 5)
            .map((c) => ({ version: c.version, timestamp: c.timestamp, operation: c.operation })),
        });
      causes.sort((a, b) => b.confidence - a.confidence);
      return {
        table_fqn: params.table_fqn,
        time_window_hours: query.hours,
        probable_causes: causes,
        total_causes_found: causes.length,
      };
    },
  }),
];
