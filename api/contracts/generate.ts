import { generateChecks, type DqCheck, type Profile } from '../../activities/data-quality/logic';
import type { TableFacts } from '../../activities/contracts/logic';
import { isPlatformError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import { cloneEdges } from '../../store/analysis/lineage';
import { asDqxCheck, enabledChecks } from '../../store/data-quality/checks';
import { latestProfile } from '../../store/data-quality/profiles';
import type { AppDeps } from '../deps';
import { notFound } from '../middleware/http-error';

/** What a governance read the workspace cannot answer (no such feature there) gives: nothing. */
async function optional<T>(read: Promise<T>, fallback: T): Promise<T> {
  return read.catch((err: unknown) => {
    if (isPlatformError(err) && err.code !== 'PERMISSION_DENIED') return fallback;
    throw err;
  });
}

/**
 * Everything generate puts in a contract about `catalog.schema.table`, read through the platform port (columns,
 * tags, properties, masks, row filter, history) and the store (data-quality checks, newest profile, clone lineage).
 */
export async function tableFacts(
  deps: AppDeps,
  ws: Workspace,
  ref: { catalog: string; schema: string; name: string },
  o: { include_dqx_profiling: boolean },
): Promise<TableFacts> {
  const fqn = `${ref.catalog}.${ref.schema}.${ref.name}`;
  const desc = await ws.describeTable(ref).catch((err: unknown) => {
    if (isPlatformError(err) && err.code === 'NOT_FOUND') throw notFound(`No table ${fqn}`);
    throw err;
  });
  const securable = { type: 'TABLE' as const, catalog: ref.catalog, schema: ref.schema, name: ref.name };
  const checks: DqCheck[] = (await enabledChecks(deps.store.db, fqn)).map(asDqxCheck);
  const profileRow = o.include_dqx_profiling ? await latestProfile(deps.store.db, fqn) : undefined;
  const profile = profileRow?.profile as Profile | undefined;
  const edges = await cloneEdges(deps.store.db, ref.catalog);
  const same = (e: { schemaName: string; tableName: string }) =>
    e.schemaName.toLowerCase() === ref.schema.toLowerCase() && e.tableName.toLowerCase() === ref.name.toLowerCase();
  const lc = ref.catalog.toLowerCase();
  return {
    fqn,
    comment: desc.comment,
    owner: desc.owner,
    tableType: desc.tableType,
    columns: desc.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, comment: c.comment })),
    partitionColumns: desc.partitionColumns,
    tags: await optional(ws.getTags(securable), {}),
    columnTags: await optional(ws.getColumnTags(ref), {}),
    properties: desc.properties,
    masks: await optional(ws.getColumnMasks(ref), []),
    rowFilter: await optional(ws.getRowFilter(ref), null),
    history: (await optional(ws.tableHistory(ref, 5), [])).map((h) => ({
      version: h.version,
      timestamp: h.timestamp,
      operation: h.operation,
    })),
    upstream: edges
      .filter((e) => e.destCatalog.toLowerCase() === lc && same(e))
      .map((e) => `${e.sourceCatalog}.${e.schemaName}.${e.tableName}`),
    downstream: edges
      .filter((e) => e.sourceCatalog.toLowerCase() === lc && same(e))
      .map((e) => `${e.destCatalog}.${e.schemaName}.${e.tableName}`),
    checks,
    profileChecks: profile ? generateChecks(profile, fqn) : [],
    rowCount: profile?.row_count ?? Number((await ws.tableStats(ref)).rowCount),
  };
}
