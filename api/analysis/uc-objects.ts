import { DatabricksWorkspace } from '../../platform/databricks';
import { UC_OBJECT_PATHS, type UcObject, type UcObjectKind } from '../../platform/databricks/rest/unity-catalog';
import type { Workspace } from '../../platform/port';
import { UcObjectsSchema } from '../../schemas/analysis-lineage';
import { route } from '../middleware/route';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const KINDS = Object.keys(UC_OBJECT_PATHS) as UcObjectKind[];
const view = (o: UcObject) => ({
  name: o.full_name ?? o.name,
  owner: o.owner ?? null,
  comment: o.comment ?? null,
  detail: o.url ?? o.connection_type ?? null,
});

/**
 * Metastore-level objects over Unity Catalog REST (no warehouse). The local lakehouse keeps none of these
 * kinds: it answers with its own metastore and empty lists.
 */
async function ucObjects(ws: Workspace) {
  const empty = Object.fromEntries(KINDS.map((k) => [k, [] as ReturnType<typeof view>[]])) as Record<
    UcObjectKind,
    ReturnType<typeof view>[]
  >;
  if (!(ws instanceof DatabricksWorkspace)) {
    const metastore = { metastore_id: 'local', name: 'local lakehouse', owner: null, region: null, cloud: null };
    return { metastore, ...empty, unavailable: [] };
  }
  const unavailable: { kind: string; error: string }[] = [];
  const uc = ws.rest.uc;
  const metastore = await uc.metastoreSummary().then(
    (m) => ({
      metastore_id: m.metastore_id,
      name: m.name ?? null,
      owner: m.owner ?? null,
      region: m.region ?? null,
      cloud: m.cloud ?? null,
    }),
    (err: unknown) => {
      unavailable.push({ kind: 'metastore', error: message(err) });
      return null;
    },
  );
  const lists = { ...empty };
  await Promise.all(
    KINDS.map(async (kind) => {
      try {
        lists[kind] = (await uc.listUcObjects(kind)).map(view);
      } catch (err) {
        unavailable.push({ kind, error: message(err) });
      }
    }),
  );
  unavailable.sort((a, b) => a.kind.localeCompare(b.kind));
  return { metastore, ...lists, unavailable };
}

export const ucObjectsRoute = route({
  method: 'get',
  path: '/uc-objects',
  summary: 'External locations, storage credentials, connections, registered models, metastore, shares, recipients',
  response: { description: 'The objects', schema: UcObjectsSchema },
  handler: async ({ deps, req }) => ucObjects(await deps.workspaces.resolve(req)),
});
