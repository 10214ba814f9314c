import path from 'node:path';
import express from 'express';
import { z } from 'zod';
import type { RouteModule } from '../deps';
import { defineRoutes, route } from '../middleware/route';

/** swagger-ui-dist's folder: the renderer is served from the installed npm package, never from a CDN. */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The package files the page loads (its index.html and petstore initializer are not served). */
const ASSETS = new Set([
  'swagger-ui.css',
  'index.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-16x16.png',
  'favicon-32x32.png',
]);

/** The page, with asset and document URLs under the mount it is served from (`/api`). */
export function docsPage(base: string): string {
  const asset = (file: string) => `${base}/docs/${file}`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Lakeward API reference</title>
    <link rel="stylesheet" type="text/css" href="${asset('swagger-ui.css')}" />
    <link rel="stylesheet" type="text/css" href="${asset('index.css')}" />
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${asset('swagger-ui-bundle.js')}" charset="UTF-8"></script>
    <script src="${asset('swagger-ui-standalone-preset.js')}" charset="UTF-8"></script>
    <script src="${asset('init.js')}" charset="UTF-8"></script>
  </body>
</html>
`;
}

/** Points Swagger UI at the app's own document; "Authorize" takes the API key when the server has one. */
export function docsInitScript(base: string): string {
  return `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(`${base}/openapi.json`)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;
}

const html = { mediaTypes: ['text/html'], schema: z.string() };

/**
 * The browsable API reference at `/api/docs` (Swagger UI from the swagger-ui-dist package) rendering
 * `/api/openapi.json`. Both are open without the API key: they describe the API and hold no data.
 */
const pages = defineRoutes({
  name: 'docs',
  routes: [
    route({
      method: 'get',
      path: '/docs',
      summary: 'The browsable API reference (Swagger UI) for this document',
      response: { description: 'The reference page (HTML)', ...html },
      security: [],
      handler: ({ req, res }) => {
        res.type('html').send(docsPage(req.baseUrl));
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: '/docs/init.js',
      summary: "The reference page's start-up script (loads this document)",
      response: { description: 'JavaScript', mediaTypes: ['text/javascript'], schema: z.string() },
      security: [],
      handler: ({ req, res }) => {
        res.type('js').send(docsInitScript(req.baseUrl));
        return undefined;
      },
    }),
  ],
});

export const docsRoutes: RouteModule = {
  ...pages,
  router(deps) {
    const router = pages.router(deps);
    const assets = express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1h' });
    router.use('/docs', (req, res, next) => (ASSETS.has(req.path.slice(1)) ? assets(req, res, next) : next()));
    return router;
  },
};
