import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');

/**
 * What a process that imports `entries` loads: the packages (node_modules folders) of every module in its
 * cache, and its heap in use after a full collection. Run as its own node process under tsx, as bin/lakeward
 * starts one, so the test's own imports do not count.
 */
async function footprint(entries: string[]): Promise<{ packages: string[]; heapMb: number }> {
  const script = `
    (async () => {
      for (const e of ${JSON.stringify(entries)}) await import(e);
      global.gc();
      const packages = new Set();
      for (const f of Object.keys(require('node:module')._cache)) {
        const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(f);
        if (m) packages.add(m[1]);
      }
      console.log(JSON.stringify({ packages: [...packages], heapMb: process.memoryUsage().heapUsed / 2 ** 20 }));
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const loader = `file://${ROOT}/node_modules/tsx/dist/loader.mjs`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', loader, '-e', script], {
    cwd: ROOT,
    maxBuffer: 1 << 22,
  });
  return JSON.parse(stdout) as { packages: string[]; heapMb: number };
}

/** Packages only some requests or only the worker use: each loads at its first use, never with the API. */
const LOADED_AT_FIRST_USE = [
  'openai', // model calls (AI summaries, capture, NL rules)
  '@databricks/sql', // the first statement on a Databricks workspace
  'pdfkit', // compliance dossiers and MDM report PDFs
  'vega', // MDM report charts
  'vega-lite',
  'date-holidays', // MDM SLA calendars
  'i18n-iso-countries', // the ISO 3166 reference domain
  '@bufbuild/cel', // automation conditions
  'openid-client', // OAuth user login
  'image-size', // captured photos
  '@faker-js/faker', // data generators (worker)
  'nodemailer', // e-mail notifications (worker)
  'exceljs', // generated documents (worker)
];

describe('what an API process loads', () => {
  it('an API-only process (lakeward serve --api-only: workers/stack without the worker) loads none of the packages used on first use or by the worker only', async () => {
    const { packages, heapMb } = await footprint([path.join(ROOT, 'workers/stack.ts'), path.join(ROOT, 'api/app.ts')]);
    expect(packages).toEqual(expect.arrayContaining(['express', '@temporalio/client', '@duckdb/node-api']));
    expect(LOADED_AT_FIRST_USE.filter((p) => packages.includes(p))).toEqual([]);
    // 136 MB when these loaded with the API; about 80 MB without them (source maps included).
    expect(heapMb).toBeLessThan(110);
  });

  it('the worker half of a stack still loads what its activities use', async () => {
    const { packages } = await footprint([path.join(ROOT, 'workers/stack-worker.ts')]);
    expect(packages).toEqual(expect.arrayContaining(['@temporalio/worker', '@faker-js/faker', 'nodemailer']));
  });
});
