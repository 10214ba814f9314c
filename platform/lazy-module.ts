import { createRequire } from 'node:module';

const load = createRequire(__filename);

/**
 * A package loaded at its first use rather than when the importing file loads, for a large package (holiday
 * rules, country names, an expression language) that a process may never call: the API alone loads ~40 MB less
 * heap this way. Gives the module as `import * as m from id` sees it with esModuleInterop (a CommonJS
 * module's exports are also its `default`). Code that may wait uses `await import(id)` instead.
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const m = load(id) as Record<string, unknown> & { __esModule?: boolean };
      loaded = (m.__esModule ? m : { ...m, default: m }) as T;
    }
    return loaded;
  };
}
