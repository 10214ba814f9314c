import { assertObjectName } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { AppDeps } from '../deps';
import type { Request } from 'express';
import { fieldUnsupported } from '../clone/errors';

/**
 * The request's workspace, after its names passed the workspace's own rule: the schema already refused
 * control, bidi, `/` and `..` (400 naming the field); the local lakehouse also takes only letters, digits,
 * `_` and `-` (422 naming the field). Databricks takes the rest quoted.
 */
export async function workspaceFor(
  deps: AppDeps,
  req: Request,
  names: Record<string, string | string[] | undefined>,
): Promise<Workspace> {
  const ws = await deps.workspaces.resolve(req);
  if (ws.kind !== 'local') return ws;
  for (const [field, value] of Object.entries(names)) {
    const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
    list.forEach((name, i) => {
      try {
        assertObjectName(name);
      } catch {
        // `table.1` (a part of a dotted name) is reported as the field itself.
        const path = Array.isArray(value) ? `${field}.${i}` : field.replace(/\.\d+$/, '');
        throw fieldUnsupported(path, "the local lakehouse accepts letters, digits, '_' and '-' only");
      }
    });
  }
  return ws;
}
