import { axeViolations, expect, jobEnded, startClone, test } from './fixtures';

const DEST = `demo_sales_cmp_${Date.now().toString(36)}`;

test('compare: the diff, per-table results, a sample with differing cells marked, and an incremental sync job', async ({
  page,
  api,
}) => {
  test.setTimeout(240_000);
  // A filtered copy (products without product 1, promotions left out) so the two catalogs differ.
  const cloneJob = await startClone(api, {
    source_catalog: 'demo_sales',
    destination_catalog: DEST,
    clone_type: 'DEEP',
    include_schemas: ['sales'],
    exclude_tables_regex: '^promotions$',
    where_clauses: { products: 'product_id > 1' },
  });
  expect((await jobEnded(api, cloneJob, 120_000)).status).toBe('completed');
  const body = { source_catalog: 'demo_sales', destination_catalog: DEST };
  const diff = (await (await api.post('/api/diff', { data: body })).json()) as {
    tables: { only_in_source: string[]; in_both: number };
  };
  const compare = (await (await api.post('/api/compare', { data: body })).json()) as {
    total_tables: number;
    tables_ok: number;
    tables: { table: string; source_rows: number | null; dest_rows: number | null; issues: string[] }[];
  };

  await page.goto('/compare');
  await page.getByRole('combobox', { name: 'Source catalog (required)' }).fill('demo_sales');
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Destination catalog (required)' }).fill(DEST);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const result = page.getByTestId('compare-diff');
  await expect(result.getByRole('heading', { level: 2 })).toContainText('differences');
  const tablesRow = result.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'tables' }) });
  await expect(tablesRow).toContainText(diff.tables.only_in_source.join(', '));
  await expect(
    result.getByRole('heading', { name: new RegExp(`${compare.tables_ok} of ${compare.total_tables} match`) }),
  ).toBeVisible();
  const products = compare.tables.find((t) => t.table.endsWith('products'))!;
  const row = page.getByTestId('compare-row').filter({ hasText: products.table });
  await expect(row).toContainText(`${products.source_rows}`);
  await expect(row).toContainText(`${products.dest_rows}`);
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'failed');

  // Sample compare of products: the API's differing cells are the marked ones.
  const sample = (await (
    await api.post('/api/sample/compare', {
      data: { ...body, schema_name: 'sales', table_name: 'products', limit: 3 },
    })
  ).json()) as { differences: number; rows: { differing_columns: string[]; source: Record<string, unknown> }[] };
  await page.getByLabel('Table (schema.table)').selectOption(products.table);
  await page.getByLabel('Rows').fill('3');
  await page.getByRole('button', { name: 'Compare rows' }).click();
  const side = page.getByTestId('sample-compare');
  await expect(side).toContainText(`${sample.differences} differing rows`);
  const firstSource = side.getByTestId('sample-source').first();
  const cols = Object.keys(sample.rows[0].source);
  for (const [i, c] of cols.entries()) {
    const cell = firstSource.locator('td').nth(i + 1);
    if (sample.rows[0].differing_columns.includes(c)) {
      await expect(cell).toHaveAttribute('data-differs', 'true');
      await expect(cell).toContainText(`≠ ${String(sample.rows[0].source[c])}`);
    } else {
      await expect(cell).not.toHaveAttribute('data-differs', 'true');
    }
  }

  // Incremental sync of sales: the left-out table is new; syncing it runs a job that completes.
  await page.getByLabel('Schema (required)').fill('sales');
  await page.getByRole('button', { name: 'Check what needs syncing' }).click();
  const check = page.getByTestId('incremental-check');
  await expect(check).toContainText(/1 of \d+ tables of sales need syncing/);
  await expect(check.getByRole('row').filter({ hasText: 'promotions' })).toContainText('new');

  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      localStorage.setItem('lakeward.theme', t);
      document.documentElement.dataset.theme = t;
    }, theme);
    found.push(...(await axeViolations(page)).map((v) => `compare (${theme}) ${v}`));
    await page.screenshot({ path: `e2e/artifacts/compare-results-${theme}.png`, fullPage: true });
  }
  expect(found).toEqual([]);

  await page.getByRole('button', { name: 'Sync 1 table' }).click();
  const link = page.getByTestId('incremental-job').getByRole('link');
  await expect(link).toBeVisible();
  const jobId = (await link.textContent())!;
  expect((await jobEnded(api, jobId, 120_000)).status).toBe('completed');
  const after = (await (
    await api.post('/api/incremental/check', { data: { ...body, schema_name: 'sales' } })
  ).json()) as { tables_needing_sync: number };
  expect(after.tables_needing_sync).toBe(0);
});
