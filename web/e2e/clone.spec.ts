import { expect, jobEnded, test } from './fixtures';
import { arrowToOption, tabTo } from './keyboard';
import { E2E } from './stack';

const source = (page: import('@playwright/test').Page) => page.getByRole('combobox', { name: /Source catalog/ });
const destination = (page: import('@playwright/test').Page) =>
  page.getByRole('combobox', { name: /Destination catalog/ });
/** Types a catalog name into a picker and closes its list (Escape), as a user does. */
async function pick(combo: import('@playwright/test').Locator, name: string) {
  await combo.fill(name);
  await combo.press('Escape');
}

test('keyboard only: the wizard clones demo_sales with template dev-refresh after a dry-run preview, and the job page reaches completed over the WebSocket', async ({
  page,
  api,
}) => {
  await page.goto('/clone');
  await expect(page.getByRole('heading', { name: /Step 1/ })).toBeVisible();
  await tabTo(page, source(page));
  await page.keyboard.type('demo_sales');
  await page.keyboard.press('Escape');
  await tabTo(page, destination(page));
  await page.keyboard.type('demo_sales_kbd');
  await page.keyboard.press('Escape');
  const template = page.getByLabel('Template');
  await tabTo(page, template);
  await arrowToOption(page, template, 'dev-refresh');
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: /Step 2/ })).toBeVisible();
  const parallel = page.getByLabel('Parallel tables', { exact: true });
  await expect(parallel).toHaveValue('4'); // dev-refresh sets it
  await expect(parallel).toHaveAccessibleDescription(/set by the template/);
  await expect(page.getByLabel('Clone type', { exact: true })).toHaveValue('SHALLOW');
  // Every field of the POST /api/clone request schema has a labelled control on one of the steps.
  const doc = await (await api.get('/api/openapi.json')).json();
  const fields = Object.keys(doc.paths['/api/clone'].post.requestBody.content['application/json'].schema.properties);
  const stepOne = ['source_catalog', 'destination_catalog', 'template'];
  for (const f of fields.filter((f) => !stepOne.includes(f))) {
    await expect(page.locator(`#field-${f}`), `a control for ${f}`).toHaveCount(1);
    await expect(page.locator(`label[for="field-${f}"]`), `a label for ${f}`).toHaveCount(1);
  }
  await tabTo(page, parallel);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('2');
  await expect(parallel).toHaveAccessibleDescription(/your edit/);
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: /Step 3/ })).toBeVisible();
  const request = JSON.parse((await page.getByTestId('review-request').textContent()) ?? '{}');
  expect(request).toEqual({
    source_catalog: 'demo_sales',
    destination_catalog: 'demo_sales_kbd',
    parallel_tables: 2,
    template: 'dev-refresh',
  });
  await expect(page.getByTestId('estimate')).toContainText('tables');
  await tabTo(page, page.getByRole('button', { name: /Preview the planned statements/ }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('dry-run-plan')).toContainText('completed', { timeout: 60_000 });
  await expect(page.getByTestId('dry-run-plan')).toContainText(/CREATE/);
  await page.screenshot({ path: 'e2e/artifacts/clone-review-dry-run.png', fullPage: true });
  await tabTo(page, page.getByRole('button', { name: 'Start the clone' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/jobs\/clone-/);
  const jobId = decodeURIComponent(page.url().split('/jobs/')[1]);
  await expect(page.getByTestId('job-status')).toHaveText(/completed/, { timeout: 60_000 });
  await expect(page.getByTestId('socket-mode')).toHaveText('(ended)'); // the final event came over the WebSocket
  const job = await jobEnded(api, jobId);
  expect(job.status).toBe('completed');
  await expect(page.getByTestId('progress-tables')).toHaveText(`${job.progress.completed}/${job.progress.total}`);
  await expect(page.getByTestId('progress-failed')).toHaveText(String(job.progress.tables_failed));
  const record = await (await api.get(`/api/clone/${jobId}`)).json();
  expect(record.request).toMatchObject({ template: 'dev-refresh', parallel_tables: 2 });
  const config = await (await page.request.get('/config.json')).json();
  const link = page.getByTestId('temporal-link');
  await expect(link).toHaveAttribute(
    'href',
    `${config.temporal_ui_url}/namespaces/${config.namespace}/workflows/${jobId}`,
  );
  expect((await page.request.get((await link.getAttribute('href'))!)).status()).toBe(200);
  await page.screenshot({ path: 'e2e/artifacts/job-completed.png', fullPage: true });
});

test('a destination equal to the source shows the API message at that field, with the summary linking to it', async ({
  page,
}) => {
  await page.goto('/clone');
  await pick(source(page), 'demo_sales');
  await pick(destination(page), 'demo_sales');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  const submitted = page.waitForResponse((r) => r.url().endsWith('/api/clone') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Start the clone' }).click();
  expect((await submitted).status()).toBe(400);
  await expect(page.getByRole('heading', { name: /Step 1/ })).toBeVisible();
  await expect(destination(page)).toBeFocused();
  await expect(destination(page)).toHaveAccessibleDescription(/must differ from source_catalog/);
  await expect(page.getByRole('link', { name: /Destination catalog: must differ/ })).toHaveAttribute(
    'href',
    '#field-destination_catalog',
  );
});

test('parallel_tables 0 is flagged at its field before anything is sent', async ({ page }) => {
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/clone') posted++;
  });
  await page.goto('/clone');
  await pick(source(page), 'demo_sales');
  await pick(destination(page), 'demo_sales_zero');
  await page.getByRole('button', { name: 'Next' }).click();
  const parallel = page.getByLabel('Parallel tables', { exact: true });
  await parallel.fill('0');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(parallel).toBeFocused();
  await expect(parallel).toHaveAttribute('aria-invalid', 'true');
  await expect(parallel).toHaveAccessibleDescription(/must be >= 1/);
  await expect(page.getByRole('link', { name: /Parallel tables: must be >= 1/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Step 2/ })).toBeVisible();
  expect(posted).toBe(0);
});

test('a wizard draft is restored after a reload at 29 minutes and gone at 31', async ({ browser }) => {
  const t0 = new Date('2026-03-02T10:00:00Z').getTime();
  for (const [minutes, kept] of [
    [29, true],
    [31, false],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript((key) => sessionStorage.setItem('lakeward.api_key', key), E2E.apiKey);
    await page.clock.install({ time: t0 });
    await page.goto('/clone');
    await pick(source(page), 'demo_sales');
    await pick(destination(page), `draft_${minutes}`);
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('lakeward.ui.clone.draft') ?? ''))
      .toContain(`draft_${minutes}`);
    await page.clock.setSystemTime(t0 + minutes * 60_000);
    await page.reload();
    await expect(page.getByRole('heading', { name: /Step 1/ })).toBeVisible();
    await expect(destination(page)).toHaveValue(kept ? `draft_${minutes}` : '');
    await context.close();
  }
});
