import { axeViolations, expect, test } from './fixtures';
import { arrowToOption } from './keyboard';

interface Budget {
  id: string;
  name: string;
  amount_usd: number;
  alert_threshold_pct: number;
}
interface Rec {
  id: string;
  type: string;
  title: string;
  subject: string;
  status: string;
  effort: string;
}

test('cost: a warehouse stopped from the page, the analysers run, a recommendation snoozed, a budget created, edited and deleted', async ({
  page,
  api,
}) => {
  test.setTimeout(180_000);
  const whName = `cost-wh-${Date.now().toString(36)}`;
  const wh = await api.post('/api/infrastructure/warehouses', {
    data: { name: whName, cluster_size: 'X-Small', auto_stop_mins: 0 },
  });
  expect(wh.status(), await wh.text()).toBe(201);
  const whId = ((await wh.json()) as { id: string }).id;

  await page.goto('/cost');
  const whRow = page.getByTestId('warehouses-table').getByRole('row').filter({ hasText: whName });
  await expect(whRow).toContainText('X-Small');
  await expect(whRow).toContainText('never');
  await whRow.getByRole('button', { name: `Stop ${whName}` }).click();
  await expect(whRow.locator('[data-status]')).toContainText(/stopping|stopped/);
  await expect
    .poll(
      async () => ((await (await api.get(`/api/infrastructure/warehouses/${whId}`)).json()) as { state: string }).state,
      {
        message: 'the warehouse to stop',
      },
    )
    .toMatch(/STOPPING|STOPPED/);

  // The analysers find the warehouse that never auto-stops; the page lists what the API lists.
  await page.getByRole('button', { name: 'Run the analysers now' }).click();
  await expect(page.getByTestId('recs-message')).toContainText('Analysers ran');
  const recs = ((await (await api.get('/api/finops/recommendations')).json()) as { recommendations: Rec[] })
    .recommendations;
  expect(recs.length).toBeGreaterThan(0);
  await expect(page.getByTestId('rec-row')).toHaveCount(recs.length);
  const mine = recs.find((r) => r.subject.includes(whId) || r.subject.includes(whName)) ?? recs[0];
  const recRow = page.getByTestId('rec-row').filter({ hasText: mine.title });
  await expect(recRow.locator('[data-status]')).toHaveAttribute('data-status', 'open');
  if (mine.effort === 'one-click') {
    const plan = (await (
      await api.post(`/api/finops/recommendations/${mine.id}/apply`, { data: { dry_run: true } })
    ).json()) as { would_run: string };
    await recRow.getByRole('button', { name: `Plan applying ${mine.title}` }).click();
    await expect(page.getByTestId('recs-message')).toContainText(plan.would_run);
  }
  await recRow.getByRole('button', { name: 'Snooze 7 days' }).click();
  await expect(page.getByTestId('recs-message')).toContainText(`${mine.title}: snoozed until`);
  const snoozed = (await (await api.get(`/api/finops/recommendations/${mine.id}`)).json()) as Rec;
  expect(snoozed.status).toBe('snoozed');

  // Budgets: the server's error lands at the field; then create, edit, delete.
  const name = `team-${Date.now().toString(36)}`;
  await page.getByLabel('Name (required)').fill(name);
  await page.getByRole('button', { name: 'Create the budget' }).click();
  const amount = page.getByLabel('Amount per month (USD) (required)');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await amount.fill('250');
  await page.getByLabel('Category').selectOption('compute');
  await page.getByRole('button', { name: 'Create the budget' }).click();
  const row = page.getByTestId('budget-row').filter({ hasText: name });
  await expect(row).toContainText('$250.00');
  const budgets = async () =>
    ((await (await api.get('/api/finops/budgets')).json()) as { budgets: Budget[] }).budgets.filter(
      (b) => b.name === name,
    );
  expect(await budgets()).toMatchObject([{ amount_usd: 250, alert_threshold_pct: 80 }]);

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await row.getByLabel(`New amount for ${name} (USD)`).fill('400');
  await row.getByRole('button', { name: 'Save amount' }).click();
  await expect(row).toContainText('$400.00');
  expect(await budgets()).toMatchObject([{ amount_usd: 400 }]);

  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      localStorage.setItem('lakeward.theme', t);
      document.documentElement.dataset.theme = t;
    }, theme);
    found.push(...(await axeViolations(page)).map((v) => `cost (${theme}) ${v}`));
    await page.screenshot({ path: `e2e/artifacts/cost-data-${theme}.png`, fullPage: true });
  }
  expect(found).toEqual([]);

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the budget' }).click();
  await expect(page.getByTestId('budget-row').filter({ hasText: name })).toHaveCount(0);
  expect(await budgets()).toEqual([]);
});

interface Billing {
  available: boolean;
  days: number;
  totals: { cost: number; dbus: number };
  daily_trend: { date: string; cost: number; dbus: number }[];
  by_warehouse: { warehouse_id: string; cost: number; dbus: number }[];
}
const usdAmount = (v: number) => `$${v >= 1 ? v.toFixed(2) : v.toFixed(4)}`;
const dbuAmount = (v: number) => String(Math.round(v * 1000) / 1000);

test('cost: the spend chart has the billing API numbers in its table, per day and per warehouse', async ({
  page,
  api,
}) => {
  test.setTimeout(180_000);
  // A warehouse makes the usage ledger bill; a job's last step derives it (today's storage at least).
  const wh = await api.post('/api/infrastructure/warehouses', {
    data: { name: `spend-wh-${Date.now().toString(36)}`, cluster_size: 'X-Small', auto_stop_mins: 10 },
  });
  expect(wh.status(), await wh.text()).toBe(201);
  const refreshed = await api.post('/api/finops/recommendations/refresh', { data: { wait: true } });
  expect(refreshed.status(), await refreshed.text()).toBe(200);
  let billing = {} as Billing;
  await expect
    .poll(
      async () => {
        billing = (await (await api.get('/api/finops/billing?days=30')).json()) as Billing;
        return billing.available && billing.daily_trend.length > 0;
      },
      { message: 'the billing of the last 30 days to list a day', timeout: 60_000 },
    )
    .toBe(true);

  await page.goto('/cost');
  await expect(page.getByRole('figure', { name: /Spend per day over the last 30 days/ })).toBeVisible();
  await expect(page.getByTestId('spend-total')).toContainText(usdAmount(billing.totals.cost));
  const table = page.getByTestId('spend-table');
  await expect(table.getByRole('caption')).toHaveText('Spend per day over the last 30 days (USD and DBUs)');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(billing.daily_trend.length);
  for (const [i, d] of billing.daily_trend.entries()) {
    await expect(rows.nth(i).getByRole('rowheader')).toHaveText(d.date);
    await expect(rows.nth(i).locator('[data-col="cost"]')).toHaveText(usdAmount(d.cost));
    await expect(rows.nth(i).locator('[data-col="dbus"]')).toHaveText(dbuAmount(d.dbus));
  }

  // Per warehouse, from the keyboard: the same endpoint's by_warehouse.
  const per = page.getByLabel('Spend per', { exact: true });
  await per.focus();
  await arrowToOption(page, per, 'warehouse');
  await expect(table.getByRole('caption')).toHaveText('Spend per warehouse over the last 30 days (USD and DBUs)');
  await expect(rows).toHaveCount(billing.by_warehouse.length);
  for (const [i, w] of billing.by_warehouse.entries()) {
    await expect(rows.nth(i).getByRole('rowheader')).toHaveText(w.warehouse_id || 'no warehouse (storage)');
    await expect(rows.nth(i).locator('[data-col="cost"]')).toHaveText(usdAmount(w.cost));
  }
  expect(await axeViolations(page)).toEqual([]);
});
