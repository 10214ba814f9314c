import type { Workspace } from '../../port';
import type { CloneTableOptions, TableRef } from '../../types';
import type { LocalWorkspaceOptions } from '../workspace-context';
import { THREADED_METHODS } from './methods';
import type { LocalThreadPool } from './pool';

/**
 * The object a call is about, for thread affinity: a table reference and a securable of the same table give the
 * same key (a clone writes a table's tags and properties at once); a name (a catalog's listing) is itself.
 */
function affinityOf(method: string, args: unknown[]): string {
  const first = method === 'cloneTable' ? (args[0] as CloneTableOptions | undefined)?.target : args[0];
  if (first && typeof first === 'object') {
    const o = first as Partial<TableRef>;
    return [o.catalog, o.schema, o.name].map((p) => String(p ?? '').toLowerCase()).join('.');
  }
  return String(first ?? '').toLowerCase();
}

/**
 * The local lakehouse `ws` (opened with `opts`), with its metadata calls and shallow clones run on `pool`'s
 * threads (`THREADED_METHODS`) while the process makes many of them; everything else runs on `ws` as before. Results and errors are the same: data
 * is structured-cloned, a platform error keeps its class. A deep clone stays here: its data goes through copy
 * helper processes this thread already drives.
 */
export function onLocalThreads(ws: Workspace, pool: LocalThreadPool, opts: LocalWorkspaceOptions): Workspace {
  const routed = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  for (const method of THREADED_METHODS) {
    const own = (ws as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method];
    if (typeof own !== 'function') continue;
    routed.set(method, (...args: unknown[]) => {
      if (method === 'cloneTable' && (args[0] as CloneTableOptions | undefined)?.cloneType !== 'SHALLOW')
        return own.apply(ws, args);
      return pool.run(opts, method, args, affinityOf(method, args), () => own.apply(ws, args));
    });
  }
  return new Proxy(ws, {
    get(target, prop, receiver) {
      return (typeof prop === 'string' && routed.get(prop)) || Reflect.get(target, prop, receiver);
    },
  });
}
