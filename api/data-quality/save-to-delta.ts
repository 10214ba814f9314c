import { z } from 'zod';
import type { DqCheck } from '../../activities/data-quality/logic';
import { lit } from '../../activities/data-quality/logic/sql-text';
import { parseFqn } from '../../platform/identifiers';
import { SaveToDeltaBodySchema } from '../../schemas/data-quality-profiles';
import { asDqxCheck, listChecks } from '../../store/data-quality/checks';
import { assertAllowed } from '../governance/access';
import { callerOf } from '../middleware/auth';
import { route } from '../middleware/route';
import { dqWorkspace } from './checks-service';

/** Catalog of Lakeward's own governance tables in a workspace (Clone-Xs's default audit catalog name). */
export const AUDIT_CATALOG = 'clone_audit';
export const DEFAULT_CHECKS_TABLE = `${AUDIT_CATALOG}.governance.dqx_checks`;

/** DQX's checks table (its `save_checks` / `load_checks` table storage): arguments as JSON text per key. */
const DQX_TABLE_COLUMNS = [
  { name: 'name', type: 'string' },
  { name: 'criticality', type: 'string' },
  { name: 'check', type: 'struct<function:string,for_each_column:array<string>,arguments:map<string,string>>' },
  { name: 'filter', type: 'string' },
  { name: 'run_config_name', type: 'string' },
  { name: 'user_metadata', type: 'map<string,string>' },
];

/** One check as a row of DQX's table; run_config_name is the checked table, so DQX loads one table's checks. */
export function dqxTableRow(c: DqCheck): Record<string, unknown> {
  const args = Object.fromEntries(Object.entries(c.arguments).map(([k, v]) => [k, JSON.stringify(v)]));
  const meta = c.user_metadata
    ? Object.fromEntries(
        Object.entries(c.user_metadata).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      )
    : null;
  return {
    name: c.name,
    criticality: c.criticality,
    check: { function: c.check_function, for_each_column: null, arguments: args },
    filter: c.filter && c.filter.trim() !== '' ? c.filter : null,
    run_config_name: c.table_fqn,
    user_metadata: meta,
  };
}

export const saveToDeltaRoute = route({
  method: 'post',
  path: '/governance/dqx/checks/save-to-delta',
  summary: `Write the checks (of one table, or all) to a Delta table DQX can load (default ${DEFAULT_CHECKS_TABLE})`,
  request: { body: SaveToDeltaBodySchema },
  response: {
    description: 'Saved',
    schema: z.object({ target_table: z.string(), saved: z.number(), run_config_names: z.array(z.string()) }),
  },
  errors: {
    403: 'An access policy refuses writing the target table (names the rule)',
    422: 'The target name does not suit the workspace',
  },
  handler: async ({ deps, input: { body }, req }) => {
    const target = body.target_table ?? DEFAULT_CHECKS_TABLE;
    const ref = parseFqn(target);
    const request = { operation: 'write' as const, destination: ref.catalog, schemas: [ref.schema] };
    await assertAllowed(deps, callerOf(req), request, 'body.target_table');
    const checks = (await listChecks(deps.store.db, { tableFqn: body.table_fqn })).map(asDqxCheck);
    const ws = await dqWorkspace(deps);
    await ws.createCatalog({ name: ref.catalog, ifNotExists: true });
    await ws.createSchema({ catalog: ref.catalog, name: ref.schema, ifNotExists: true });
    if (!(await ws.tableExists(ref))) await ws.createTable({ ref, columns: DQX_TABLE_COLUMNS });
    // Replaces what an earlier save wrote for the same tables; other tables' rows stay.
    const configs = [...new Set([...(body.table_fqn ? [body.table_fqn] : []), ...checks.map((c) => c.table_fqn)])];
    if (configs.length) await ws.deleteWhere(ref, `run_config_name IN (${configs.map(lit).join(', ')})`);
    if (checks.length) await ws.insertRows(ref, checks.map(dqxTableRow));
    return { target_table: target, saved: checks.length, run_config_names: configs };
  },
});
