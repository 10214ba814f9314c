import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { PAGES } from './src/manifest';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * `npm run web:dev` (Vite on 8000) and `vite preview` proxy /api and its WebSockets to the API
 * (LAKEWARD_API_URL, default http://127.0.0.1:8080), so the console calls its own origin as under `lakeward web`.
 * /config.json is what `lakeward web` serves in production; here a fallback from the environment answers it.
 */
const apiUrl = process.env.LAKEWARD_API_URL ?? 'http://127.0.0.1:8080';
const proxy = { '/api': { target: apiUrl, changeOrigin: true, ws: true } };

function devConfigJson(): Plugin {
  const body = () =>
    JSON.stringify({
      api_url: '',
      temporal_ui_url: process.env.LAKEWARD_TEMPORAL_UI_URL ?? 'http://localhost:8233',
      namespace: process.env.LAKEWARD_TEMPORAL_NAMESPACE ?? 'default',
    });
  const handler = (req: { url?: string }, res: import('node:http').ServerResponse, next: () => void) => {
    if (req.url !== '/config.json') return next();
    res.setHeader('Content-Type', 'application/json');
    res.end(body());
  };
  return {
    name: 'lakeward-dev-config-json',
    configureServer: (server) => void server.middlewares.use(handler),
    configurePreviewServer: (server) => void server.middlewares.use(handler),
  };
}

/**
 * dist/page-chunks.json: each page's route pattern and the files of its chunk (the chunk and the shared chunks it
 * imports, less the shell's), read by `lakeward web` to name the opened page's code as modulepreloads in the HTML
 * (workers/web-preload.ts). Pages and their modules come from the manifest and src/pages/index.tsx's lazy imports.
 */
function pageChunks(): Plugin {
  return {
    name: 'lakeward-page-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const index = readFileSync(path.join(here, 'src/pages/index.tsx'), 'utf8');
      const moduleOf = new Map(
        [...index.matchAll(/'?([\w-]+)'?: lazy\(\(\) => import\('(\.\/[^']+)'\)/g)].map((m) => [
          m[1],
          path.join(here, 'src/pages', m[2]),
        ]),
      );
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const dep of byFile.get(file)?.imports ?? []) closure(dep, seen);
        return seen;
      };
      const shell = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [...closure(c.fileName)]));
      const pages = PAGES.flatMap((page) => {
        const mod = moduleOf.get(page.id);
        const chunk = chunks.find((c) => c.isDynamicEntry && c.facadeModuleId?.replace(/\.tsx?$/, '') === mod);
        if (!chunk) {
          this.warn(`page-chunks.json: no chunk found for page ${page.id}`);
          return [];
        }
        return [{ path: page.path, files: [...closure(chunk.fileName)].filter((f) => !shell.has(f)) }];
      });
      this.emitFile({ type: 'asset', fileName: 'page-chunks.json', source: JSON.stringify({ pages }, null, 2) });
    },
  };
}

export default defineConfig({
  plugins: [react(), devConfigJson(), pageChunks()],
  server: { port: 8000, strictPort: true, proxy },
  preview: { port: 8000, strictPort: true, proxy },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1500 },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
