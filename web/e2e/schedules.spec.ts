import { axeViolations, expect, test } from './fixtures';
import { arrowToOption, tabTo } from './keyboard';

interface Schedule {
  schedule_id: string;
  name: string;
  paused: boolean | null;
  next_run_times: string[];
}

test('schedules: next runs from the API, pause / resume / run now, its runs, and the link to the Temporal Schedule', async ({
  page,
  api,
}) => {
  test.setTimeout(180_000);
  const name = `nightly-${Date.now().toString(36)}`;
  const created = await api.post('/api/schedule', {
    data: {
      name,
      schedule: { cron: '0 3 * * *' },
      clone_options: {
        source_catalog: 'demo_sales',
        destination_catalog: `demo_sales_${name.replace(/-/g, '_')}`,
        clone_type: 'SHALLOW',
        include_schemas: ['sales'],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const s = (await created.json()) as Schedule;
  const view = async () => (await (await api.get(`/api/schedule/${s.schedule_id}`)).json()) as Schedule;

  await page.goto('/schedules');
  const row = page.getByTestId('schedule-row').filter({ hasText: s.schedule_id });
  await expect(row).toContainText(name);
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'active');
  const times = row.getByTestId('next-runs').locator('time');
  await expect(times).toHaveCount(3);
  for (const [i, t] of s.next_run_times.slice(0, 3).entries())
    await expect(times.nth(i)).toHaveAttribute('dateTime', t);

  // The Temporal Web UI's page of the schedule (its Schedule id is the schedule id), answering 200.
  const config = (await (await api.get('/config.json')).json()) as { temporal_ui_url: string; namespace: string };
  const link = row.getByTestId('schedule-temporal-link');
  const href = `${config.temporal_ui_url}/namespaces/${config.namespace}/schedules/${s.schedule_id}`;
  await expect(link).toHaveAttribute('href', href);
  expect((await page.request.get(href)).status()).toBe(200);

  // Pause and resume, from the keyboard.
  await row.getByRole('button', { name: `Pause ${name}` }).focus();
  await page.keyboard.press('Enter');
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'paused');
  expect((await view()).paused).toBe(true);
  await row.getByRole('button', { name: `Resume ${name}` }).focus();
  await page.keyboard.press('Enter');
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'active');
  expect((await view()).paused).toBe(false);

  // Run now: a run appears among the schedule's runs, as the API lists them.
  await row.getByRole('button', { name: `Run ${name} now` }).click();
  await expect(page.getByTestId('schedule-message')).toContainText(s.schedule_id);
  await row.getByRole('button', { name: `Runs of ${name}` }).click();
  let runs: { run_id: string; outcome: string }[] = [];
  await expect
    .poll(
      async () => {
        runs = await (await api.get(`/api/schedule/${s.schedule_id}/runs`)).json();
        return runs.length;
      },
      { message: 'a run of the triggered schedule', timeout: 60_000 },
    )
    .toBeGreaterThan(0);
  await expect(page.getByTestId('schedule-runs').locator('tbody tr')).not.toHaveCount(0, { timeout: 30_000 });

  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      localStorage.setItem('lakeward.theme', t);
      document.documentElement.dataset.theme = t;
    }, theme);
    found.push(...(await axeViolations(page)).map((v) => `schedules (${theme}) ${v}`));
    await page.screenshot({ path: `e2e/artifacts/schedules-runs-${theme}.png`, fullPage: true });
  }
  expect(found).toEqual([]);
  await api.delete(`/api/schedule/${s.schedule_id}`);
});

test('schedules: a schedule created from scratch by keyboard, checked by ajv and the server at its fields, is listed with its next runs', async ({
  page,
  api,
}) => {
  test.setTimeout(120_000);
  const name = `kb-${Date.now().toString(36)}`;
  const destination = `demo_sales_${name.replace(/-/g, '_')}`;
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/schedule') posts.push(r.url());
  });
  await page.goto('/schedules');
  const form = page.getByRole('form', { name: 'New clone schedule' });
  await tabTo(page, form.getByLabel('Name (letters, digits, - and _)'));
  await page.keyboard.type(name);
  const source = form.getByLabel('Source catalog (required)');
  await tabTo(page, source);
  await arrowToOption(page, source, 'demo_sales');
  const type = form.getByLabel('Clone type');
  await tabTo(page, type);
  await arrowToOption(page, type, 'SHALLOW');
  await tabTo(page, form.getByLabel('Only these schemas (optional)'));
  await page.keyboard.type('sales');
  const cron = form.getByLabel('Cron expression', { exact: true });
  await tabTo(page, cron);
  await page.keyboard.type('61 3 * * *');

  // ajv first: the empty destination is flagged at its field and nothing is sent.
  await page.keyboard.press('Enter');
  const dest = form.getByLabel('Destination catalog (required)');
  await expect(dest).toHaveAttribute('aria-invalid', 'true');
  await expect(dest).toBeFocused();
  expect(posts).toEqual([]);
  await page.keyboard.type(destination);

  // The server reads the cron expression: its finding, as the API gives it, sits under the cron field.
  const body = {
    name,
    schedule: { cron: '61 3 * * *', timezone: 'UTC', drift_check: false, enabled: true },
    clone_options: {
      source_catalog: 'demo_sales',
      destination_catalog: destination,
      clone_type: 'SHALLOW',
      include_schemas: ['sales'],
    },
  };
  const refused = await api.post('/api/schedule', { data: body });
  expect(refused.status()).toBe(400);
  const detail = (
    (await refused.json()) as { error: { details: { path: string; message: string }[] } }
  ).error.details.find((x) => x.path === 'body.schedule.cron');
  expect(detail, 'the server names the cron field').toBeDefined();
  await page.keyboard.press('Enter');
  await expect(cron).toHaveAttribute('aria-invalid', 'true');
  await expect(cron).toBeFocused();
  await expect(form.locator('#field-schedule\\.cron-error')).toContainText(detail!.message);
  expect(posts).toHaveLength(1);

  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0 3 * * *');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('schedule-message')).toContainText('created (active), next run');

  // It exists through the API, as the form described it, and the list shows its next runs.
  let s: Schedule & { clone_options: Record<string, unknown> } = {} as never;
  await expect
    .poll(async () => {
      const all = (await (await api.get('/api/schedule')).json()) as (typeof s)[];
      s = all.find((x) => x.name === name) ?? s;
      return s.schedule_id ?? null;
    })
    .not.toBeNull();
  expect(s.clone_options).toMatchObject({
    source_catalog: 'demo_sales',
    destination_catalog: destination,
    clone_type: 'SHALLOW',
    include_schemas: ['sales'],
  });
  expect(s.paused).toBe(false);
  expect(s.next_run_times.length).toBeGreaterThan(0);
  for (const t of s.next_run_times) expect(new Date(t).getUTCHours()).toBe(3);
  const row = page.getByTestId('schedule-row').filter({ hasText: s.schedule_id });
  await expect(row).toContainText(name);
  const times = row.getByTestId('next-runs').locator('time');
  await expect(times.first()).toHaveAttribute('dateTime', s.next_run_times[0]);
  expect(await axeViolations(page)).toEqual([]);
  await api.delete(`/api/schedule/${s.schedule_id}`);
});
