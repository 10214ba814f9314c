import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The global WebAssembly API (its types live in lib.dom, which this Node project does not load). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;

type PgliteAssets = { wasmModule: object; fsBundle: Blob };
let assets: Promise<PgliteAssets> | undefined;

/**
 * PGlite's WebAssembly module and file-system bundle, read once per process. Compiling the module once
 * makes every further store (one per test file, say) start faster, and handing both to PGlite skips its
 * own loader, which uses dynamic import() and fails under CommonJS module sandboxes.
 */
export function pgliteAssets(): Promise<PgliteAssets> {
  assets ??= (async () => {
    const dist = path.dirname(require.resolve('@electric-sql/pglite'));
    const [code, data] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')),
      readFile(path.join(dist, 'pglite.data')),
    ]);
    return { wasmModule: await wasm.compile(code), fsBundle: new Blob([data]) };
  })();
  return assets;
}
