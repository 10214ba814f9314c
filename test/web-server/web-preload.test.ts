import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createWebConsoleApp } from '../../workers/web-console';
import { pageFilesFor, routeMatches, withModulePreloads } from '../../workers/web-preload';

const INDEX = '<!doctype html><html><head><title>Lakeward</title></head><body><div id="root"></div></body></html>';
const CHUNKS = {
  pages: [
    { path: '/', files: ['assets/Dashboard-a1.js'] },
    { path: '/jobs', files: ['assets/JobsList-b2.js', 'assets/table-c3.js'] },
    { path: '/jobs/:jobId', files: ['assets/JobPage-d4.js'] },
    { path: '/catalogs/:catalog?/:schema?/:table?', files: ['assets/CatalogExplorer-e5.js'] },
  ],
};

test('route patterns match as the console router does: required, optional and literal segments', () => {
  expect(routeMatches('/', '/')).toBe(true);
  expect(routeMatches('/', '/jobs')).toBe(false);
  expect(routeMatches('/jobs', '/jobs')).toBe(true);
  expect(routeMatches('/jobs', '/jobs/')).toBe(true);
  expect(routeMatches('/jobs', '/jobs/clone-1')).toBe(false);
  expect(routeMatches('/jobs/:jobId', '/jobs/clone-1')).toBe(true);
  expect(routeMatches('/jobs/:jobId', '/jobs')).toBe(false);
  for (const p of ['/catalogs', '/catalogs/a', '/catalogs/a/b', '/catalogs/a/b/c'])
    expect(routeMatches('/catalogs/:catalog?/:schema?/:table?', p)).toBe(true);
  expect(routeMatches('/catalogs/:catalog?/:schema?/:table?', '/catalogs/a/b/c/d')).toBe(false);
  expect(routeMatches('/quality.x', '/qualityZx')).toBe(false); // a literal dot is a dot
  expect(pageFilesFor(CHUNKS, '/jobs/clone-1')).toEqual(['assets/JobPage-d4.js']);
  expect(pageFilesFor(CHUNKS, '/nowhere')).toEqual([]);
  // Only built assets are named, never a path that could leave the assets folder.
  expect(withModulePreloads(INDEX, ['../secret.js', 'assets/x"onload=1.js'])).toBe(INDEX);
});

describe('lakeward web names the opened page chunk in the HTML', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'lakeward-web-preload-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  test('each page URL gets its own chunk files as modulepreloads; other paths and old builds get plain HTML', async () => {
    const { app } = createWebConsoleApp({
      distDir: dist,
      apiUrl: 'http://127.0.0.1:9',
      console: { api_url: '', temporal_ui_url: null, namespace: 'default' },
    });
    // A build without page-chunks.json (older): index.html as built.
    expect((await request(app).get('/jobs').expect(200)).text).toBe(INDEX);

    writeFileSync(path.join(dist, 'page-chunks.json'), JSON.stringify(CHUNKS));
    const jobs = await request(app).get('/jobs').expect(200);
    expect(jobs.headers['content-type']).toMatch(/text\/html/);
    expect(jobs.headers['cache-control']).toBe('no-cache');
    expect(jobs.text).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/JobsList-b2.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/table-c3.js"></head>',
    );
    expect(jobs.text).not.toContain('CatalogExplorer');
    const table = await request(app).get('/catalogs/demo_sales/sales/orders').expect(200);
    expect(table.text).toContain('href="/assets/CatalogExplorer-e5.js"');
    expect(table.text).not.toContain('JobsList');
    expect((await request(app).get('/no/such/page').expect(200)).text).toBe(INDEX);
  });
});
