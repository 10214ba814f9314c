/**
 * The browser part of bench/web-console.ts: Debian's chromium (Playwright, `LAKEWARD_CHROMIUM`, default
 * /usr/bin/chromium) opens each list page of the built console through `lakeward web`'s server and times until the
 * first row is painted (the end of the first frame that shows it), as a ratio to the same API call alone from this
 * process (goal ≤ 2): once from navigation start in a fresh tab (load), once as a navigation inside the console already open
 * on another page and settled there (nothing fetched for 500 ms: what the shell does at idle is done, as for a user
 * who reads a page before moving on) (in-app). Also the initial JS of the build (entry and modulepreloads), gzipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_WEB_DIST, startWebConsole } from '../workers/web-console';

/** One timed GET (the body read and parsed, as the console does); throws on any non-200. */
export async function timedGet(base: string, p: string): Promise<{ ms: number; items: number }> {
  const t = process.hrtime.bigint();
  const res = await fetch(`${base}${p}`, { headers: { Accept: 'application/json' } });
  const body = (await res.json()) as unknown;
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  const b = body as { tables?: unknown[]; columns?: unknown[] };
  const items = Array.isArray(body) ? body.length : (b.tables ?? b.columns ?? []).length;
  return { ms, items };
}

export interface BrowserFigures {
  lines: string[];
}

const GOAL = 2;

/** The part of playwright-core's API used here (it is installed in web/, not at the top level). */
interface Chromium {
  launch(opts: { executablePath: string; args: string[] }): Promise<{
    newContext(): Promise<{
      newPage(): Promise<{
        goto(url: string, opts: { waitUntil: 'commit' }): Promise<unknown>;
        evaluate<R>(expression: string): Promise<R>;
      }>;
      close(): Promise<void>;
    }>;
    close(): Promise<void>;
  }>;
}
const ROUNDS = Math.max(1, Number(process.env.LAKEWARD_BENCH_ROUNDS ?? 5));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const MANIFEST = path.resolve(__dirname, '../web/src/manifest.ts');
/** Where the in-app navigation starts: a light page calling none of the timed operations. */
const START_PAGE = '/notebooks';

/** The list pages this bench times; a page runs when the console's manifest declares its call. */
const PAGES = [
  {
    list: 'tables',
    operation: 'get /api/catalogs/{catalog}/schemas/{schema}/tables',
    url: '/catalogs/bench/big',
    // A table of the opened schema in the tree (not the schema's own link).
    row: 'nav[aria-label="Catalog tree"] a[href^="/catalogs/bench/big/"]',
    api: '/api/catalogs/bench/schemas/big/tables',
  },
  {
    list: 'columns',
    operation: 'get /api/tables/{full_name}',
    url: '/catalogs/bench/wide/cols',
    row: '[data-testid="table-columns"] tbody tr:not([aria-hidden])',
    api: '/api/tables/bench.wide.cols',
  },
  {
    list: 'jobs',
    operation: 'get /api/jobs',
    url: '/jobs',
    row: '[data-testid="job-row"]',
    api: '/api/jobs?limit=200&offset=0',
  },
];

/** Bytes of the JS the first page load fetches: the entry script and the modules it preloads, each gzipped. */
export function initialJs(dist: string): { files: number; raw: number; gzipped: number } {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const srcs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)];
  const files = [...new Set(srcs.map((m) => m[1]))].map((src) => readFileSync(path.join(dist, src.replace(/^\//, ''))));
  return {
    files: files.length,
    raw: files.reduce((n, f) => n + f.length, 0),
    gzipped: files.reduce((n, f) => n + gzipSync(f, { level: 9 }).length, 0),
  };
}

export async function browserPart(
  apiUrl: string,
  print: (line: string) => void,
): Promise<BrowserFigures | { skipped: string }> {
  const dist = process.env.LAKEWARD_BENCH_WEB_DIST ?? DEFAULT_WEB_DIST;
  if (!existsSync(path.join(dist, 'index.html'))) return { skipped: 'web/dist is not built (npm run web:build)' };
  const executablePath = process.env.LAKEWARD_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) return { skipped: `no chromium at ${executablePath} (LAKEWARD_CHROMIUM)` };
  const manifest = existsSync(MANIFEST) ? readFileSync(MANIFEST, 'utf8') : '';
  // Playwright is the console's test dependency (web/node_modules); browsers are never downloaded.
  const { chromium } = createRequire(path.resolve(__dirname, '../web/package.json'))('playwright-core') as {
    chromium: Chromium;
  };
  const web = await startWebConsole({
    distDir: dist,
    apiUrl,
    console: { api_url: '', temporal_ui_url: null, namespace: 'default' },
    host: '127.0.0.1',
    port: 0,
  });
  const browser = await chromium.launch({ executablePath, args: ['--disable-background-networking'] });
  const lines = [
    'web console in chromium (first painted row ÷ the same API call alone; medians):',
    '  load = a fresh tab opening the URL (no cache: HTML, scripts, /config.json, operations, then the call);',
    '  in-app = the console already open elsewhere and settled, then navigating to the page (the call; its chunk',
    '  too unless the shell fetched it at idle).',
  ];
  /**
   * Resolves with performance.now() once the first frame showing `row` is painted: a MutationObserver notes when
   * it enters the DOM (`inDom`), then the next animation frame runs and a message posted from it arrives after
   * that frame's style, layout and paint (`painted`).
   */
  const painted = (row: string) => `new Promise((resolve) => {
    const found = () => document.querySelector(${JSON.stringify(row)});
    const afterPaint = (inDom) => requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve({ inDom, painted: performance.now() });
      ch.port2.postMessage(0);
    });
    if (found()) return afterPaint(performance.now());
    const mo = new MutationObserver(() => {
      if (!found()) return;
      mo.disconnect();
      afterPaint(performance.now());
    });
    mo.observe(document, { childList: true, subtree: true });
  })`;
  /** Resolves once the tab has fetched nothing new for 500 ms (at most 10 s): the page and its idle work done. */
  const settled = `new Promise((resolve) => {
    let seen = -1, quiet = 0, waited = 0;
    const tick = () => {
      const n = performance.getEntriesByType('resource').length;
      quiet = n === seen ? quiet + 100 : 0;
      seen = n;
      waited += 100;
      if (quiet >= 500 || waited >= 10000) resolve(undefined); else setTimeout(tick, 100);
    };
    tick();
  })`;
  try {
    for (const page of PAGES.filter((p) => manifest.includes(`'${p.operation}'`))) {
      const load: number[] = [];
      const inApp: number[] = [];
      const alone: number[] = [];
      const callStart: number[] = [];
      const callEnd: number[] = [];
      const inDom: number[] = [];
      for (let r = 0; r < ROUNDS + 1; r++) {
        const context = await browser.newContext();
        const tab = await context.newPage();
        await tab.goto(`${web.url}${page.url}`, { waitUntil: 'commit' });
        const loadMs = (await tab.evaluate<{ painted: number }>(painted(page.row))).painted;
        // The console open on another page (no query cache for this one) and settled there, as a user reading it
        // is, then a client-side navigation.
        await tab.goto(`${web.url}${START_PAGE}`, { waitUntil: 'commit' });
        await tab.evaluate(painted('main h1'));
        await tab.evaluate(settled);
        // Also when the page's call started and was answered (resource timing), to tell the call from the rest.
        const nav = await tab.evaluate<{ ms: number; inDom: number; start: number; end: number }>(`(async () => {
          const t0 = performance.now();
          history.pushState({}, '', ${JSON.stringify(page.url)});
          dispatchEvent(new PopStateEvent('popstate'));
          const { inDom, painted } = await ${painted(page.row)};
          const ms = painted - t0;
          const call = performance.getEntriesByType('resource')
            .find((e) => e.startTime >= t0 && e.name.endsWith(${JSON.stringify(page.api)}));
          return {
            ms,
            inDom: inDom - t0,
            start: call ? call.startTime - t0 : NaN,
            end: call ? call.responseEnd - t0 : NaN,
          };
        })()`);
        await context.close();
        const api = (await timedGet(apiUrl, page.api)).ms;
        if (r === 0) continue; // the first load compiles the bundle in a cold browser: a warm-up
        load.push(loadMs);
        inApp.push(nav.ms);
        callStart.push(nav.start);
        callEnd.push(nav.end);
        alone.push(api);
        inDom.push(nav.inDom);
      }
      const apiMs = median(alone);
      const verdict = (ms: number) => `ratio ${(ms / apiMs).toFixed(2)} (${ms / apiMs <= GOAL ? 'met' : 'NOT met'})`;
      const line =
        `  ${page.list.padEnd(8)} ${page.url}: API alone ${apiMs.toFixed(1)} ms; load ${median(load).toFixed(0)} ms ` +
        `${verdict(median(load))}; in-app ${median(inApp).toFixed(0)} ms ${verdict(median(inApp))} (its call ` +
        `+${median(callStart).toFixed(0)}..+${median(callEnd).toFixed(0)} ms, row in the DOM +${median(inDom).toFixed(0)} ms); ` +
        `goal <= ${GOAL}`;
      print(line);
      lines.push(line);
    }
    for (const p of PAGES.filter((x) => !manifest.includes(`'${x.operation}'`)))
      lines.push(`  ${p.list.padEnd(8)} not timed: the console has no page calling ${p.operation}`);
    const js = initialJs(dist);
    lines.push(
      `  initial JS: ${js.files} file(s), ${(js.raw / 1024).toFixed(1)} KiB, gzipped ${(js.gzipped / 1024).toFixed(1)} KiB`,
    );
  } finally {
    await browser.close();
    await web.close();
  }
  return { lines };
}
