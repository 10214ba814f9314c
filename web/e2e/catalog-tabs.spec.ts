import { axeViolations, expect, test } from './fixtures';

const TABLE = 'demo_sales.sales.payments';
const URL = '/catalogs/demo_sales/sales/payments';

test('the table tabs show the sample, lineage, quality and contract the API holds (keyboard: arrows between tabs)', async ({
  page,
  api,
}) => {
  test.setTimeout(180_000);
  // A check with a run, and a contract attached to the table, all made through the API.
  const details = (await (await api.get(`/api/tables/${TABLE}`)).json()) as { columns: { name: string }[] };
  const column = details.columns[0].name;
  const check = await api.post('/api/governance/dqx/checks', {
    data: { table_fqn: TABLE, name: 'payments_first_not_null', check_function: 'is_not_null', arguments: { column } },
  });
  expect(check.status(), await check.text()).toBe(201);
  const run = await api.post('/api/governance/dqx/run', { data: { table_fqn: TABLE } });
  expect(run.status(), await run.text()).toBe(200);
  const runBody = (await run.json()) as { total_rows: number };
  const gen = await api.post('/api/governance/odcs/generate', {
    data: { catalog: 'demo_sales', schema: 'sales', table: 'payments', name: 'payments_contract' },
  });
  expect([201, 409]).toContain(gen.status());
  const attach = await api.post('/api/governance/odcs/payments_contract/attach', { data: { table_fqn: TABLE } });
  expect(attach.status(), await attach.text()).toBe(200);
  const validate = await api.post('/api/governance/odcs/validate/payments_contract', { data: { table_fqn: TABLE } });
  expect(validate.status(), await validate.text()).toBe(200);
  const validation = ((await validate.json()) as { results: { violation_count: number }[] }).results[0];

  await page.goto(URL);
  await expect(page.getByRole('heading', { name: TABLE })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Columns' })).toHaveAttribute('aria-selected', 'true');

  // Sample: the API's first row is on the page.
  const sample = (await (
    await api.post('/api/sample', {
      data: { catalog: 'demo_sales', schema_name: 'sales', table_name: 'payments', limit: 20 },
    })
  ).json()) as { columns: { name: string }[]; rows: Record<string, unknown>[] };
  await page.getByRole('tab', { name: 'Columns' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Sample' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?tab=sample$/);
  const sampleTable = page.getByTestId('table-sample');
  await expect(sampleTable.locator('caption')).toHaveText(`${sample.rows.length} sample rows`);
  await expect(sampleTable.locator('tbody tr').first().locator('td').first()).toHaveText(
    String(sample.rows[0][sample.columns[0].name]),
  );

  // Lineage: the API's downstream views.
  const lineage = (await (
    await api.post('/api/lineage', { data: { catalog: 'demo_sales', table: TABLE } })
  ).json()) as { upstream: string[]; downstream: string[] };
  await page.getByRole('tab', { name: 'Lineage' }).click();
  const lin = page.getByTestId('table-lineage');
  await expect(lin.getByRole('heading', { name: `Downstream (${lineage.downstream.length})` })).toBeVisible();
  await expect(lin.getByRole('heading', { name: `Upstream (${lineage.upstream.length})` })).toBeVisible();
  for (const d of lineage.downstream) await expect(lin.getByText(d, { exact: true }).first()).toBeVisible();

  // Quality: the check and its run.
  await page.getByRole('tab', { name: /^Quality/ }).click();
  const quality = page.getByTestId('table-quality');
  await expect(quality).toContainText('payments_first_not_null');
  await expect(quality).toContainText('is_not_null');
  await expect(quality.locator('table').nth(1).locator('tbody tr').first()).toContainText(String(runBody.total_rows));

  // Contract: attached, with its validation.
  await page.reload();
  await page.getByRole('tab', { name: /^Contract/ }).click();
  const contract = page.getByTestId('table-contract');
  await expect(contract.getByRole('heading', { name: /payments_contract/ })).toBeVisible();
  await expect(contract.locator('tbody tr').first()).toContainText(String(validation.violation_count));
  await expect(page).toHaveURL(/\?tab=contract$/);

  // Every tab of the table, both themes: no WCAG A/AA violations.
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.addInitScript((t) => localStorage.setItem('lakeward.theme', t), theme);
    for (const tab of ['sample', 'details', 'history', 'lineage', 'quality', 'contract']) {
      await page.goto(`${URL}?tab=${tab}`);
      await expect(page.getByRole('tab', { selected: true })).toBeVisible();
      await expect(page.getByRole('tabpanel').getByRole('status')).toHaveCount(0);
      found.push(...(await axeViolations(page)).map((v) => `catalog ${tab} (${theme}) ${v}`));
      if (tab === 'sample' || tab === 'lineage')
        await page.screenshot({ path: `e2e/artifacts/catalog-${tab}-${theme}.png`, fullPage: true });
    }
  }
  expect(found).toEqual([]);
});
