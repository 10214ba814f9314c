import type { APIRequestContext } from '@playwright/test';
import { PAGES, type PageId } from '../src/manifest';
import { axeViolations, expect, startClone, test } from './fixtures';

/**
 * A URL for each page whose path has a required parameter, built from data made through the API. Pages without
 * one are opened at their path; a page of the manifest with neither fails the test below (add its sample here).
 */
const SAMPLES: Partial<Record<PageId, (api: APIRequestContext) => Promise<string>>> = {
  job: async (api) =>
    `/jobs/${await startClone(api, { source_catalog: 'demo_sales', destination_catalog: 'demo_sales_axe', clone_type: 'SHALLOW' })}`,
  catalogs: async () => '/catalogs/demo_sales/sales/orders',
  notebook: async (api) => {
    const res = await api.post('/api/notebooks', {
      data: {
        title: 'Axe notebook',
        cells: [
          { type: 'markdown', content: '# Notes\n\nThe **orders** of `demo_sales`:\n\n- one\n- two' },
          { type: 'sql', content: 'SELECT 1' },
        ],
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return `/notebooks/${((await res.json()) as { id: string }).id}`;
  },
  'quality-run': async (api) => {
    const check = await api.post('/api/governance/dqx/checks', {
      data: { table_fqn: 'demo_sales.sales.orders', check_function: 'is_not_null', arguments: { column: 'order_id' } },
    });
    expect(check.status(), await check.text()).toBe(201);
    const run = await api.post('/api/governance/dqx/run', {
      data: { table_fqn: 'demo_sales.sales.orders', wait_seconds: 60 },
    });
    expect([200, 202], await run.text()).toContain(run.status());
    return `/quality/runs/${encodeURIComponent(((await run.json()) as { run_id: string }).run_id)}`;
  },
  contract: async (api) => {
    const res = await api.post('/api/governance/odcs/generate', {
      data: { catalog: 'demo_sales', schema: 'sales', table: 'customers', name: 'axe_customers' },
    });
    // Both tests of this file build the URLs: the second finds the draft the first made.
    expect([201, 409], await res.text()).toContain(res.status());
    return '/contracts/axe_customers';
  },
  'glossary-term': async (api) => {
    const res = await api.post('/api/governance/glossary', {
      data: { name: `Axe term ${Date.now()}`, definition: 'A term made for the accessibility check.' },
    });
    expect(res.status(), await res.text()).toBe(201);
    return `/glossary/${encodeURIComponent(((await res.json()) as { term_id: string }).term_id)}`;
  },
};

/** The URL the check opens for `page`: its sample, else its path without optional parameters. */
async function urlOf(page: (typeof PAGES)[number], api: APIRequestContext): Promise<string | null> {
  const sample = SAMPLES[page.id];
  if (sample) return sample(api);
  const path = page.path.replace(/\/:[^/]+\?/g, '');
  return path.includes(':') ? null : path || '/';
}

/** Every page of the manifest with the URL the check opens, and the pages it cannot open. */
async function pageUrls(api: APIRequestContext) {
  const urls: [string, string][] = [];
  const uncovered: string[] = [];
  for (const p of PAGES) {
    const url = await urlOf(p, api);
    if (url) urls.push([p.id, url]);
    else uncovered.push(`${p.id} (${p.path}): no sample URL in e2e/axe.spec.ts`);
  }
  return { urls, uncovered };
}

test('the accessibility check opens every page of the manifest', async ({ api }) => {
  const { uncovered } = await pageUrls(api);
  expect(uncovered).toEqual([]);
});

test('every page of the manifest has no WCAG A/AA violations in both themes (screenshots in e2e/artifacts)', async ({
  page,
  api,
}) => {
  test.setTimeout(300_000);
  const { urls } = await pageUrls(api);
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.addInitScript((t) => localStorage.setItem('lakeward.theme', t), theme);
    for (const [name, url] of urls) {
      await page.goto(url);
      // A page that does not come up is reported with the rest (one run names every problem).
      const shown = await page
        .locator('main h1')
        .waitFor({ state: 'visible', timeout: 20_000 })
        .then(() => true)
        .catch(() => false);
      if (!shown) {
        found.push(`${name} (${theme}) at ${url}: no heading within 20 s`);
        continue;
      }
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await page.waitForLoadState('networkidle').catch(() => undefined);
      found.push(...(await axeViolations(page)).map((v) => `${name} (${theme}) ${v}`));
      await page.screenshot({ path: `e2e/artifacts/${name}-${theme}.png`, fullPage: true });
    }
  }
  expect(found).toEqual([]);
});
