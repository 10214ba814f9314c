import { assertObjectName } from '../../platform/identifiers';
import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { CloneOptions, TargetWorkspace } from '../../schemas/clone';
import { fieldNotFound, fieldUnsupported } from './errors';

type Kind = 'local' | 'databricks';
type Named = { field: string; name: string };

/** The kind of workspace a target names, as build-input resolves it (a saved target name is Databricks). */
const targetKind = (t: TargetWorkspace): Kind => t.kind ?? (t.root ? 'local' : 'databricks');

/** Names a clone reads from the source workspace, with the request field each came from. */
function sourceNames(o: CloneOptions): Named[] {
  return [
    { field: 'source_catalog', name: o.source_catalog },
    ...(o.include_schemas ?? []).map((name, i) => ({ field: `include_schemas.${i}`, name })),
    ...(o.exclude_schemas ?? []).map((name, i) => ({ field: `exclude_schemas.${i}`, name })),
    ...(o.include_objects ?? []).flatMap((obj, i) => [
      { field: `include_objects.${i}.schema`, name: obj.schema },
      { field: `include_objects.${i}.name`, name: obj.name },
    ]),
  ];
}

/** Destination catalog names a clone writes on local workspaces. */
function localDestinations(o: CloneOptions, sourceKind: Kind): Named[] {
  const own = { field: 'destination_catalog', name: o.destination_catalog };
  if (o.target_workspace) {
    const t = o.target_workspace;
    if (targetKind(t) !== 'local') return [];
    return [
      t.destination_catalog ? { field: 'target_workspace.destination_catalog', name: t.destination_catalog } : own,
    ];
  }
  if (o.target_workspaces) {
    return o.target_workspaces.flatMap((t, i) => {
      if (targetKind(t) !== 'local') return [];
      return [
        t.destination_catalog
          ? { field: `target_workspaces.${i}.destination_catalog`, name: t.destination_catalog }
          : own,
      ];
    });
  }
  return sourceKind === 'local' ? [own] : [];
}

/**
 * The local lakehouse's stricter name rule, applied before anything is queued: its names become folder names,
 * so only letters, digits, `_` and `-` are accepted (platform/identifiers). A name the schema let through for
 * Databricks (a backtick or quote, which Databricks takes inside a quoted identifier) is refused here with 422
 * naming the field, instead of failing inside the job.
 */
export function checkLocalNames(options: CloneOptions, sourceKind: Kind): void {
  const names = [...(sourceKind === 'local' ? sourceNames(options) : []), ...localDestinations(options, sourceKind)];
  for (const { field, name } of names) {
    try {
      assertObjectName(name);
    } catch {
      throw fieldUnsupported(
        field,
        "the local lakehouse accepts letters, digits, '_' and '-' only (max 255, not starting with '-')",
      );
    }
  }
}

/**
 * The source catalog must exist on the source workspace. Only the workspace's own answer "no such catalog"
 * refuses the request (404); a workspace that cannot be reached right now does not: the job waits in the
 * queue and its first activity reports (and retries) the outage.
 */
export async function checkSourceCatalog(openSource: () => Promise<Workspace>, catalog: string): Promise<void> {
  let workspace: Workspace;
  try {
    workspace = await openSource();
  } catch {
    return;
  }
  try {
    await workspace.getCatalog(catalog);
  } catch (err) {
    if (err instanceof NotFoundError)
      throw fieldNotFound('source_catalog', `catalog ${catalog} does not exist on the source workspace`);
    if ((err as { retryable?: boolean }).retryable) return;
    throw err;
  }
}
