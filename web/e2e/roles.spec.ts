import { expect, startClone, test } from './fixtures';
import { E2E } from './stack';

/** The viewer key of the suite's stack in sessionStorage (as after answering the key dialog with it). */
test.beforeEach(async ({ page }) => {
  await page.addInitScript((key) => sessionStorage.setItem('lakeward.api_key', key), E2E.viewerKey);
});

const NEEDS_EDITOR = 'Needs the editor role; your key e2e-viewer has the viewer role.';

test(
  'with a viewer key the shell names the role and actions above it are disabled with the reason',
  { tag: '@no-key' },
  async ({ page, api }) => {
    const jobId = await startClone(api, {
      source_catalog: 'demo_sales',
      destination_catalog: 'demo_sales_roles',
      clone_type: 'SHALLOW',
    });
    const notebook = await api.post('/api/notebooks', {
      data: { title: 'Viewer notebook', cells: [{ type: 'sql', content: 'SELECT 1' }] },
    });
    const notebookId = ((await notebook.json()) as { id: string }).id;

    await page.goto('/convert');
    await expect(page.getByTestId('caller-role')).toHaveText('Key e2e-viewer: viewer');
    const plan = page.getByRole('button', { name: 'Plan the conversion' });
    await expect(plan).toBeDisabled();
    await expect(plan).toHaveAccessibleDescription(NEEDS_EDITOR);

    await page.goto(`/jobs/${jobId}`);
    await expect(page.getByRole('button', { name: 'Cancel job' })).toHaveAccessibleDescription(NEEDS_EDITOR);
    await expect(page.getByRole('button', { name: 'Cancel job' })).toBeDisabled();
    const rollback = page.getByRole('button', { name: 'Roll back' });
    await expect(rollback).toBeDisabled();
    await expect(rollback).toHaveAccessibleDescription(
      'Needs the admin role; your key e2e-viewer has the viewer role.',
    );

    await page.goto('/notebooks');
    await expect(page.getByRole('button', { name: 'Create the notebook' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Import the notebook' })).toBeDisabled();
    await page.goto(`/notebooks/${notebookId}`);
    await expect(page.getByRole('button', { name: 'Run all' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Undo' })).toHaveAccessibleDescription(NEEDS_EDITOR);
    await expect(page.getByRole('button', { name: 'Run cell 1' })).toBeDisabled();
    // Export is a viewer's: it reads the saved copy.
    await expect(page.getByRole('button', { name: 'Export as SQL' })).toBeEnabled();

    await page.goto('/clone');
    await page.getByRole('combobox', { name: /Source catalog/ }).fill('demo_sales');
    await page.getByRole('combobox', { name: /Source catalog/ }).press('Escape');
    await page.getByRole('combobox', { name: /Destination catalog/ }).fill('demo_sales_viewer');
    await page.getByRole('combobox', { name: /Destination catalog/ }).press('Escape');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { name: /Step 2/ })).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { name: /Step 3/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start the clone' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Start the clone' })).toHaveAccessibleDescription(NEEDS_EDITOR);
    await expect(page.getByRole('button', { name: /Preview the planned statements/ })).toBeDisabled();
    await expect(page.getByTestId('estimate')).toContainText('tables'); // the estimate is a viewer's
  },
);

test(
  "when the console cannot learn the key's role, actions stay enabled and the API's 403 names the role",
  { tag: '@no-key' },
  async ({ page }) => {
    // /api/auth/me fails (a network error): the server decides, and the console shows its answer.
    await page.route('**/api/auth/me', (route) => route.abort('failed'));
    await page.goto('/convert');
    await page.getByLabel('Table 1 (catalog.schema.table)').fill('demo_sales.ops.sensor_readings_raw');
    await page.getByRole('button', { name: 'Plan the conversion' }).click();
    const error = page.getByRole('alert').filter({ hasText: 'FORBIDDEN' });
    await expect(error).toContainText('This needs the editor role; the key e2e-viewer has the viewer role');
    await expect(error).toContainText('This action needs the editor role (or higher)');
    await expect(error.getByTestId('request-id')).not.toBeEmpty();
  },
);
