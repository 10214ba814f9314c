import { expect, startClone, test } from './fixtures';
import { tabTo } from './keyboard';
import { E2E } from './stack';

test(
  'the API key is asked once on the first 401, kept across a reload, and a wrong key shows the 401 message',
  { tag: '@no-key' },
  async ({ page }) => {
    await page.goto('/jobs');
    const dialog = page.getByRole('dialog', { name: 'API key' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('API key for this tab').fill('not-the-key');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('api-key-message')).toContainText('The key was refused');
    await dialog.getByLabel('API key for this tab').fill(E2E.apiKey);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
    await expect(page.getByText(/jobs? shown/)).toBeVisible();
    await page.reload();
    await expect(page.getByText(/jobs? shown/)).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'API key' })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('lakeward.api_key'))).toBeNull();
  },
);

test('the health badge polls /api/health every 15 s on the page clock', async ({ page }) => {
  const polls: number[] = [];
  await page.clock.install();
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/health') polls.push(Date.now());
  });
  await page.goto('/jobs');
  await expect(page.getByTestId('health-badge')).toHaveText('✓ All systems ok');
  const first = polls.length;
  await page.clock.runFor(14_000);
  expect(polls.length).toBe(first);
  await page.clock.runFor(1_500);
  await expect.poll(() => polls.length, { message: 'a health poll 15 s after the first' }).toBe(first + 1);
  await page.clock.runFor(15_000);
  await expect.poll(() => polls.length, { message: 'a health poll 30 s after the first' }).toBe(first + 2);
});

test('/jobs lists a job started through the API with its id, destination and status', async ({ page, api }) => {
  const jobId = await startClone(api, {
    source_catalog: 'demo_sales',
    destination_catalog: 'demo_sales_listed',
    clone_type: 'SHALLOW',
  });
  await page.goto('/jobs');
  const row = page.getByTestId('job-row').filter({ hasText: jobId });
  await expect(row).toBeVisible();
  await expect(row).toContainText('demo_sales_listed');
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', /queued|running|completed/);
});

test('the catalog explorer opens demo_sales level by level and shows a table from GET /api/tables/{full_name}', async ({
  page,
  api,
}) => {
  await page.goto('/catalogs');
  const tree = page.getByRole('tree', { name: 'Catalogs, schemas and tables' });
  await tree.getByRole('treeitem', { name: 'demo_sales', exact: true }).click();
  await expect(tree.getByRole('treeitem', { name: 'demo_sales', exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  // The keyboard: type-ahead to the schema, Right opens it, Down to its first table. The catalog shows as open
  // before its schemas arrive; a user types once they are listed.
  await expect(tree.getByRole('treeitem', { name: 'sales', exact: true })).toBeVisible();
  await tree.getByRole('treeitem', { name: 'demo_sales', exact: true }).focus();
  await page.keyboard.type('sal');
  await expect(tree.getByRole('treeitem', { name: 'sales', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\/catalogs\/demo_sales\/sales$/);
  await expect(tree.getByRole('treeitem', { name: 'sales', exact: true })).toHaveAttribute('aria-expanded', 'true');
  await expect(tree.getByRole('treeitem', { level: 3 }).first()).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem', { level: 3 }).first()).toBeFocused();
  await page.getByLabel('Filter names').fill('ord');
  await tree.getByRole('treeitem', { name: /^orders\b/ }).click();
  await expect(page).toHaveURL(/\/catalogs\/demo_sales\/sales\/orders$/);
  await expect(tree.getByRole('treeitem', { name: /^orders\b/ })).toHaveAttribute('aria-selected', 'true');
  const details = await (await api.get('/api/tables/demo_sales.sales.orders')).json();
  await expect(page.getByRole('heading', { name: 'demo_sales.sales.orders' })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Columns (${details.columns.length})` })).toBeVisible();
  await expect(page.getByTestId('table-columns')).toContainText(details.columns[0].name);
});

test('/convert-to-delta answers 301 to /convert, where a dry run plans converting the demo Parquet table', async ({
  page,
}) => {
  const res = await page.request.get('/convert-to-delta?x=1', { maxRedirects: 0 });
  expect(res.status()).toBe(301);
  expect(res.headers().location).toBe('/convert?x=1');
  await page.goto('/convert-to-delta');
  await expect(page).toHaveURL(/\/convert$/);
  await page.getByLabel('Table 1 (catalog.schema.table)').fill('demo_sales.ops.sensor_readings_raw');
  await expect(page.getByLabel('Dry run (plan the statements, change nothing)')).toBeChecked();
  await page.getByRole('button', { name: 'Plan the conversion' }).click();
  const results = page.getByTestId('convert-results');
  await expect(results).toContainText('demo_sales.ops.sensor_readings_raw: PARQUET → DELTA');
  await expect(results.locator('pre').first()).toContainText(/CONVERT|CREATE|ALTER/i);
});

test('a convert request without a table name is flagged at its field before anything is sent', async ({ page }) => {
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/convert-to-delta') posted++;
  });
  await page.goto('/convert');
  await page.getByLabel('Table 1 (catalog.schema.table)').fill('');
  await page.getByRole('button', { name: 'Plan the conversion' }).click();
  await expect(page.getByLabel('Table 1 (catalog.schema.table)')).toBeFocused();
  await expect(page.getByLabel('Table 1 (catalog.schema.table)')).toHaveAttribute('aria-invalid', 'true');
  expect(posted).toBe(0);
});

test('the workbench runs the editor text with Ctrl+Enter and lists the last 30 of 31 statements', async ({
  page,
  api,
}) => {
  for (let i = 1; i <= 31; i++) {
    const res = await api.post('/api/sql/statements', { data: { statement: `SELECT ${i} AS n` } });
    expect(res.status()).toBe(200);
  }
  await page.goto('/workbench');
  const history = page.getByTestId('sql-history').locator('li');
  await expect(history).toHaveCount(30);
  await expect(history.first()).toContainText('SELECT 31 AS n');
  const editor = page.getByTestId('sql-editor');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('select count(*) as orders from demo_sales.sales.orders');
  await page.keyboard.press('ControlOrMeta+Enter');
  const count = (
    await (
      await api.post('/api/sql/statements', { data: { statement: 'SELECT count(*) FROM demo_sales.sales.orders' } })
    ).json()
  ).result.data_array[0][0];
  await expect(page.getByTestId('sql-result')).toContainText('SUCCEEDED');
  await expect(page.getByTestId('sql-result').locator('td').first()).toHaveText(String(count));
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+Shift+KeyF');
  await expect(editor).toContainText('SELECT');
});

test('in a narrow window the side navigation folds behind a menu button: keyboard opens it, Escape closes it, a link navigates', async ({
  page,
}) => {
  await page.setViewportSize({ width: 600, height: 800 });
  await page.goto('/jobs');
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Pages' });
  const menu = nav.getByRole('button', { name: 'Menu' });
  const catalogs = nav.getByRole('link', { name: 'Catalogs' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(catalogs).toBeHidden();

  // Keyboard only: Tab reaches the button, Enter opens the list, Tab goes into it, Escape closes it back to the button.
  await tabTo(page, menu);
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(catalogs).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(catalogs).toBeHidden();
  await expect(menu).toBeFocused();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  // Opened again, a link opens its page and folds the menu.
  await page.keyboard.press('Enter');
  await tabTo(page, catalogs);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/catalogs$/);
  await expect(page.getByRole('heading', { name: 'Catalog explorer' })).toBeVisible();
  await expect(catalogs).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  // A wide window shows the pages beside the page, with no menu button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(catalogs).toBeVisible();
  await expect(menu).toBeHidden();
});
