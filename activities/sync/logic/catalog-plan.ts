import { NotFoundError } from '../../../platform/errors';
import type { Workspace } from '../../../platform/port';
import type { SyncAction, SyncPlan } from '../../../schemas/sync';
import { checkSchema } from './check';
import type { SchemaCheck, TableSyncStatus } from './classify';

/**
 * Plans of the sync jobs. Port-generic like the check (workspaces and the recorded versions are passed in):
 * the API's dry run, the job's plan step and the estimate read the same code.
 */

type Kind = SyncAction['kind'];

const act = (
  action: SyncAction['action'],
  kind: Kind,
  schema: string,
  name: string | null,
  detail: string,
  path: SyncAction['path'] = null,
): SyncAction => ({ action, kind, schema, name, path, detail });

async function orEmpty<T>(p: Promise<T[]>): Promise<T[]> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}

/** Actions for the tables of one schema check: new → clone, changed → re-sync (merge or copy). */
export function tableActions(check: SchemaCheck): SyncAction[] {
  return check.tables
    .filter((t) => t.needs_sync)
    .map((t: TableSyncStatus) =>
      t.reason === 'new'
        ? act('clone_table', 'table', check.schema, t.table, `${t.reason}: ${t.detail}`, 'copy')
        : act('resync_table', 'table', check.schema, t.table, `${t.reason}: ${t.detail}`, t.path),
    );
}

export function countActions(actions: SyncAction[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
  return counts;
}

export interface CatalogSyncRequest {
  sourceCatalog: string;
  destinationCatalog: string;
  includeSchemas: string[] | null;
  excludeSchemas: string[];
  dropExtra: boolean;
  /** Source versions recorded at the last clones into one destination schema (read from the store). */
  recorded(schema: string): Promise<ReadonlyMap<string, number | null>>;
}

const lower = (s: string) => s.toLowerCase();
const names = (list: { name: string }[]) => new Set(list.map((x) => lower(x.name)));

/**
 * Two-way catalog sync plan: what the destination lacks is created (schemas, tables, views, functions,
 * volumes), tables whose source changed since their last clone are re-synced, and objects only the
 * destination has are dropped when drop_extra is set (listed as `keep_extra` otherwise).
 */
export async function planCatalogSync(
  src: Workspace,
  dst: Workspace,
  r: CatalogSyncRequest,
): Promise<{ plan: SyncPlan; checks: SchemaCheck[] }> {
  const wanted = r.includeSchemas ? new Set(r.includeSchemas.map(lower)) : null;
  const excluded = new Set(['information_schema', ...r.excludeSchemas.map(lower)]);
  const chosen = (s: string) => !excluded.has(lower(s)) && (!wanted || wanted.has(lower(s)));
  const srcSchemas = (await src.listSchemas(r.sourceCatalog))
    .map((s) => s.name)
    .filter(chosen)
    .sort();
  const dstSchemas = (await orEmpty(dst.listSchemas(r.destinationCatalog)))
    .map((s) => s.name)
    .filter(chosen)
    .sort();
  const dstSet = new Set(dstSchemas.map(lower));
  const actions: SyncAction[] = [];
  const checks: SchemaCheck[] = [];
  const extra = (kind: Kind, schema: string, name: string | null) =>
    r.dropExtra
      ? act(`drop_${kind}`, kind, schema, name, 'only in the destination')
      : act('keep_extra', kind, schema, name, 'only in the destination (drop_extra is false)');
  for (const schema of srcSchemas) {
    const exists = dstSet.has(lower(schema));
    if (!exists) actions.push(act('create_schema', 'schema', schema, null, 'not in the destination'));
    const check = await checkSchema(src, dst, {
      sourceCatalog: r.sourceCatalog,
      destinationCatalog: r.destinationCatalog,
      schema,
      recorded: await r.recorded(schema),
    });
    checks.push(check);
    actions.push(...tableActions(check));
    const dstTables = exists ? await orEmpty(dst.listTables(r.destinationCatalog, schema)) : [];
    const srcTables = names(await src.listTables(r.sourceCatalog, schema));
    const pairs: [Kind, { name: string }[], { name: string }[]][] = [
      [
        'view',
        await src.listViews(r.sourceCatalog, schema),
        exists ? await orEmpty(dst.listViews(r.destinationCatalog, schema)) : [],
      ],
      [
        'function',
        await src.listFunctions(r.sourceCatalog, schema),
        exists ? await orEmpty(dst.listFunctions(r.destinationCatalog, schema)) : [],
      ],
      [
        'volume',
        await src.listVolumes(r.sourceCatalog, schema),
        exists ? await orEmpty(dst.listVolumes(r.destinationCatalog, schema)) : [],
      ],
    ];
    for (const [kind, s, d] of pairs) {
      const have = names(d);
      for (const o of s)
        if (!have.has(lower(o.name)))
          actions.push(act(`create_${kind}` as SyncAction['action'], kind, schema, o.name, 'not in the destination'));
    }
    for (const t of dstTables) if (!srcTables.has(lower(t.name))) actions.push(extra('table', schema, t.name));
    for (const [kind, s, d] of pairs) {
      const have = names(s);
      for (const o of d) if (!have.has(lower(o.name))) actions.push(extra(kind, schema, o.name));
    }
  }
  const srcSet = new Set(srcSchemas.map(lower));
  for (const schema of dstSchemas) if (!srcSet.has(lower(schema))) actions.push(extra('schema', schema, null));
  return {
    plan: {
      source_catalog: r.sourceCatalog,
      destination_catalog: r.destinationCatalog,
      drop_extra: r.dropExtra,
      schemas: srcSchemas,
      actions,
      counts: countActions(actions),
    },
    checks,
  };
}

/** The objects a sync hands to the clone engine (include_objects): tables to copy and objects to create. */
export function cloneObjectsOf(
  actions: SyncAction[],
): { schema: string; name: string; type: 'table' | 'view' | 'function' | 'volume' }[] {
  return actions
    .filter(
      (a) =>
        a.name !== null &&
        ((a.kind === 'table' && a.path === 'copy' && (a.action === 'clone_table' || a.action === 'resync_table')) ||
          a.action === 'create_view' ||
          a.action === 'create_function' ||
          a.action === 'create_volume'),
    )
    .map((a) => ({ schema: a.schema, name: a.name!, type: a.kind as 'table' | 'view' | 'function' | 'volume' }));
}
