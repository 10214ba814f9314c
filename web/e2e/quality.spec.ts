import type { APIRequestContext } from '@playwright/test';
import { axeAndScreenshots, expect, json, test } from './fixtures';
import { tabTo } from './keyboard';

const ORDERS = 'demo_sales.sales.orders';

test('a check built from the check-functions form runs; the run page shows the API pass rate and failure samples', async ({
  page,
  api,
}) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Data quality' }).click();
  await expect(page.getByRole('heading', { name: 'Data quality', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Data quality' }).getByRole('link', { name: 'Checks' }).click();
  await page.getByLabel('Table (catalog.schema.table)').fill(ORDERS);
  await page.getByLabel('Check function').selectOption('is_in_list');
  const args = page.getByTestId('check-arguments');
  // The column argument offers the table's columns (read from GET /api/tables/{full_name}).
  await expect(args.getByLabel(/^column \(required\)/).locator('option', { hasText: 'status' })).toHaveCount(1);
  await args.getByLabel(/^column \(required\)/).selectOption('status');
  await args.getByLabel(/^allowed \(required\)/).fill('PAID, SHIPPED');
  await page.getByLabel('Name (optional)').fill('e2e_status_known');
  await page.getByRole('button', { name: 'Create the check' }).click();
  await expect(page.getByTestId('check-created')).toContainText('e2e_status_known');
  const stored = await json<any[]>(await api.get(`/api/governance/dqx/checks?table_fqn=${ORDERS}`));
  const check = stored.find((c) => c.name === 'e2e_status_known');
  expect(check.arguments).toEqual({ column: 'status', allowed: ['PAID', 'SHIPPED'] });
  const row = page.getByTestId('dq-check-row').filter({ hasText: 'e2e_status_known' });
  await expect(row).toContainText('is_in_list');
  await expect(row.locator('[data-status]').last()).toHaveAttribute('data-status', 'enabled');

  await page.getByRole('navigation', { name: 'Data quality' }).getByRole('link', { name: 'Runs' }).click();
  await page.getByLabel('Table or scope').fill(ORDERS);
  await page.getByRole('button', { name: 'Run the enabled checks' }).click();
  await expect(page).toHaveURL(/\/quality\/runs\/[^/]+$/, { timeout: 60_000 });
  const runId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const run = await json(await api.get(`/api/governance/dqx/runs/${encodeURIComponent(runId)}`));
  expect(run.invalid_rows).toBeGreaterThan(0);
  const result = page.getByTestId('run-result');
  await expect(result).toContainText(`${Math.round(run.pass_rate * 10) / 10} %`);
  await expect(result).toContainText(`${run.invalid_rows} invalid`);
  await expect(result.locator('[data-status]')).toHaveAttribute('data-status', /warning|failing/);
  const checkResult = run.check_results.find((c: any) => c.name === 'e2e_status_known');
  await expect(page.getByTestId('run-checks').getByRole('row', { name: /e2e_status_known/ })).toContainText(
    `${checkResult.failures} (`,
  );
  const samples = await json<any[]>(
    await api.get(`/api/data-quality/failure-samples?run_id=${encodeURIComponent(runId)}`),
  );
  expect(samples.length).toBeGreaterThan(0);
  const table = page.getByTestId('failure-samples');
  await expect(table.locator('tbody tr')).toHaveCount(samples.length);
  await expect(table.locator('tbody tr').first()).toContainText(String(samples[0].row_data.order_id));
  await expect(table).toContainText('error: e2e_status_known');

  // The dashboard shows the same run, worst first.
  await page.getByRole('navigation', { name: 'Data quality' }).getByRole('link', { name: 'Overview' }).click();
  const dash = await json(await api.get('/api/governance/dqx/dashboard'));
  await expect(page.getByTestId('dq-summary')).toContainText(`${dash.total_checks} (${dash.enabled_checks} enabled)`);
  await expect(page.getByTestId('dq-latest-runs').getByRole('row', { name: new RegExp(ORDERS) })).toContainText(
    `${Math.round(run.pass_rate * 10) / 10} %`,
  );

  // Disable from the list: the API has it disabled.
  await page.goto('/quality/checks');
  await page.getByRole('button', { name: 'Disable e2e_status_known' }).click();
  await expect(page.getByRole('button', { name: 'Enable e2e_status_known' })).toBeVisible();
  const after = await json(await api.get(`/api/governance/dqx/checks/${check.id}`));
  expect(after.enabled).toBe(false);
});

test('a missing argument is flagged at its field before sending; the server names a bad column at the field', async ({
  page,
}) => {
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/governance/dqx/checks') posted++;
  });
  await page.goto('/quality/checks');
  await page.getByLabel('Table (catalog.schema.table)').fill(ORDERS);
  await page.getByLabel('Check function').selectOption('is_in_range');
  const args = page.getByTestId('check-arguments');
  // The column control is a text box until the table's columns arrive, then a list of them.
  await args.getByRole('combobox', { name: /^column \(required\)/ }).selectOption('amount');
  await args.getByLabel(/^max_limit \(required\)/).fill('100');
  await page.getByRole('button', { name: 'Create the check' }).click();
  const min = args.getByLabel(/^min_limit \(required\)/);
  await expect(min).toBeFocused();
  await expect(min).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('link', { name: 'argument min_limit: is required' })).toBeVisible();
  expect(posted).toBe(0);

  await page.getByLabel('Check function').selectOption('is_not_null');
  await page.getByLabel('Table (catalog.schema.table)').fill('demo_sales.sales.no_such_table');
  await args.getByLabel(/^column \(required\)/).fill('amount');
  await page.getByRole('button', { name: 'Create the check' }).click();
  await expect.poll(() => posted, { message: 'the create request sent' }).toBe(1);
  await expect(page.locator('.error-box').first()).toBeVisible();
});

test('coverage of demo_sales and a profile of customers show what the API returned', async ({ page, api }) => {
  await page.goto('/quality/coverage');
  await page.getByLabel('Catalog').selectOption('demo_sales');
  await expect(page).toHaveURL(/\/quality\/coverage\/demo_sales$/);
  const cov = await json(await api.get('/api/data-quality/coverage/demo_sales'));
  await expect(page.getByTestId('coverage-summary')).toContainText(
    `${cov.covered} of ${cov.total_tables} tables have checks`,
  );
  await expect(
    page.getByTestId('dq-coverage-row').filter({ hasText: cov.uncovered_tables[0].table_fqn }),
  ).toContainText('no checks');

  await page.getByRole('navigation', { name: 'Data quality' }).getByRole('link', { name: 'Profiles' }).click();
  await page.getByLabel('Table (catalog.schema.table)').fill('demo_sales.sales.customers');
  await page.getByRole('button', { name: 'Profile the table' }).click();
  const profile = page.getByTestId('profile').first();
  await expect(profile).toBeVisible({ timeout: 60_000 });
  const [latest] = await json<any[]>(
    await api.get('/api/governance/dqx/profiles?table_fqn=demo_sales.sales.customers'),
  );
  await expect(profile).toContainText(
    `demo_sales.sales.customers: ${latest.row_count} rows, ${latest.columns.length} columns`,
  );
  const first = latest.columns[0];
  await expect(profile.getByRole('row', { name: new RegExp(`^${first.name}\\b`) })).toContainText(`${first.nulls} (`);
});

/** A table with 14 runs of the same size, then a run after it grew: its metrics leave their baselines. */
async function seedAnomalies(api: APIRequestContext): Promise<string> {
  const catalog = 'e2e_anomaly';
  const fqn = `${catalog}.mdm_synthetic.truth`;
  await json(await api.post('/api/mdm/synthetic', { data: { catalog, records: 30 } }));
  const table = await json(await api.get(`/api/tables/${fqn}`));
  await json(
    await api.post('/api/governance/dqx/checks', {
      data: { table_fqn: fqn, check_function: 'is_not_null', arguments: { column: table.columns[0].name } },
    }),
  );
  for (let i = 0; i < 14; i++) {
    const r = await api.post('/api/governance/dqx/run', { data: { table_fqn: fqn, wait_seconds: 60 } });
    expect(r.status(), `baseline run ${i + 1}: ${await r.text()}`).toBe(200);
  }
  await json(await api.post('/api/mdm/synthetic', { data: { catalog, records: 300 } }));
  const r = await api.post('/api/governance/dqx/run', { data: { table_fqn: fqn, wait_seconds: 60 } });
  expect(r.status(), await r.text()).toBe(200);
  return fqn;
}

test('anomalies are triaged from the keyboard: j/k move, a acknowledges, f marks a false positive, r resolves', async ({
  page,
  api,
}) => {
  test.setTimeout(300_000);
  const fqn = await seedAnomalies(api);
  const open = await json<any[]>(await api.get(`/api/data-quality/anomalies?status=open&table_fqn=${fqn}`));
  expect(open.length, 'anomalies after the table grew').toBeGreaterThanOrEqual(3);
  await page.goto('/quality/anomalies');
  await expect(page.getByLabel('Status')).toHaveValue('open');
  const list = page.getByTestId('anomaly-list');
  await tabTo(page, list);
  const current = () => list.locator('[aria-selected="true"]');
  const idOf = async () => (await current().getAttribute('id'))!.replace(/^anomaly-/, '');

  await page.keyboard.press('j');
  await page.keyboard.press('k');
  const firstId = await idOf();
  await page.keyboard.press('a');
  await expect(page.getByTestId('anomaly-said')).toContainText('is now acknowledged');
  await expect(list.locator(`[id="anomaly-${firstId}"]`)).toHaveCount(0);

  await page.keyboard.press('j');
  const secondId = await idOf();
  expect(secondId).not.toBe(firstId);
  await page.keyboard.press('f');
  await expect(page.getByTestId('anomaly-said')).toContainText('is now false positive');
  await expect(list.locator(`[id="anomaly-${secondId}"]`)).toHaveCount(0);

  const thirdId = await idOf();
  await page.keyboard.press('r');
  await expect(page.getByTestId('anomaly-said')).toContainText('is now resolved');

  const status = async (id: string) => {
    const all = await json<any[]>(await api.get(`/api/data-quality/anomalies?table_fqn=${fqn}&limit=1000`));
    return all.find((a) => a.id === id)?.status;
  };
  expect(await status(firstId)).toBe('acknowledged');
  expect(await status(secondId)).toBe('false_positive');
  expect(await status(thirdId)).toBe('resolved');

  // The acknowledged one is listed under its status, with a symbol and the word (not colour alone).
  await page.getByLabel('Status').selectOption('acknowledged');
  await expect(list.locator(`[id="anomaly-${firstId}"]`)).toContainText('acknowledged');
  await expect(page.getByTestId('anomaly-detail')).toBeVisible();
});

test('the overview charts the pass rate of the recent runs; its table has the runs API numbers, oldest first', async ({
  page,
  api,
}) => {
  test.setTimeout(120_000);
  // A check of its own on orders, run twice through the API: the recent runs include both.
  const name = `e2e_chart_${Date.now().toString(36)}`;
  await json(
    await api.post('/api/governance/dqx/checks', {
      data: { table_fqn: ORDERS, check_function: 'is_not_null', arguments: { column: 'order_id' }, name },
    }),
  );
  for (let i = 0; i < 2; i++)
    await json(await api.post('/api/governance/dqx/run', { data: { table_fqn: ORDERS, wait_seconds: 60 } }));
  const runs = (await json<any[]>(await api.get('/api/governance/dqx/runs?limit=20'))).reverse();
  expect(runs.length).toBeGreaterThanOrEqual(2);

  await page.goto('/quality');
  await expect(page.getByRole('figure', { name: /Pass rate of the last \d+ runs/ })).toBeVisible();
  const table = page.getByTestId('dq-recent-runs');
  await expect(table.getByRole('caption')).toHaveText(
    `Pass rate of the last ${runs.length} runs, oldest first (percent of rows passing)`,
  );
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(runs.length);
  for (const [i, r] of runs.entries()) {
    await expect(rows.nth(i).locator('[data-col="table"]')).toHaveText(r.table_fqn);
    const rate = rows.nth(i).locator('[data-col="pass_rate"]');
    if (r.status === 'failed') await expect(rate).toContainText('run failed');
    else await expect(rate).toContainText(`${Math.round(r.pass_rate * 10) / 10} %`);
    await expect(rows.nth(i).locator('[data-col="invalid"]')).toHaveText(`${r.invalid_rows} of ${r.total_rows}`);
  }
  // The newest run's link opens its run page.
  await rows.last().getByRole('link').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/quality/runs/${encodeURIComponent(runs[runs.length - 1].run_id)}$`));
});

test('the data-quality pages have no WCAG A/AA violations in both themes (screenshots in e2e/artifacts)', async ({
  page,
  api,
}) => {
  const [run] = await json<any[]>(await api.get(`/api/governance/dqx/runs?limit=1&table_fqn=${ORDERS}`));
  const pages = [
    ['quality', '/quality'],
    ['quality-checks', '/quality/checks'],
    ['quality-runs', '/quality/runs'],
    ['quality-coverage', '/quality/coverage/demo_sales'],
    ['quality-profiles', '/quality/profiles'],
    ['quality-anomalies', '/quality/anomalies'],
    ...(run ? [['quality-run', `/quality/runs/${encodeURIComponent(run.run_id)}`] as const] : []),
  ] as const;
  expect(await axeAndScreenshots(page, [...pages])).toEqual([]);
});
