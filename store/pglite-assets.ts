import { readFile } from 'node:fs/promises';
import path from 'node:path';

let assets: Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;

/**
 * PGlite's WebAssembly module and file-system bundle, read once per process. PGlite would otherwise load
 * them through a dynamic `import()`, which fails under CommonJS loaders such as jest's; compiling the module
 * once also makes every further store (one per test file) start faster.
 */
export function pgliteAssets(): Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> {
  assets ??= (async () => {
    const dist = path.dirname(require.resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')),
      readFile(path.join(dist, 'pglite.data')),
    ]);
    return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })();
  return assets;
}
