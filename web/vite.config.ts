import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  plugins: [react(), devConfigJson()],
  server: { port: 8000, strictPort: true, proxy },
  preview: { port: 8000, strictPort: true, proxy },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1500 },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
