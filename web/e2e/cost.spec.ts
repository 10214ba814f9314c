import { axeViolations, expect, test } from './fixtures';

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
