import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { expect, jobEnded, test } from './fixtures';
import { tabTo } from './keyboard';

interface Nb {
  id: string;
  title: string;
  version: number;
  can_undo: boolean;
  cells: { id: string; type: string; content: string; output: { rows: (string | null)[][] } | null }[];
}

async function createNotebook(api: APIRequestContext, body: Record<string, unknown>): Promise<Nb> {
  const res = await api.post('/api/notebooks', { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Nb;
}
const read = async (api: APIRequestContext, id: string) => (await (await api.get(`/api/notebooks/${id}`)).json()) as Nb;

test('an edited notebook is saved 30 s after the edit on the page clock (PUT with If-Match), not before', async ({
  page,
  api,
}) => {
  const nb = await createNotebook(api, { title: 'autosave', cells: [{ type: 'sql', content: 'SELECT 1' }] });
  await page.clock.install();
  await page.goto(`/notebooks/${nb.id}`);
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('autosave');
  await page.getByLabel('Title', { exact: true }).fill('autosave edited');
  const editor = page.getByTestId('cell-editor-1');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' AS one');
  await expect(page.getByTestId('save-state')).toHaveText(/Unsaved changes/);
  await page.clock.runFor(29_000);
  expect((await read(api, nb.id)).version).toBe(1);
  await page.clock.runFor(1_500);
  await expect
    .poll(async () => (await read(api, nb.id)).title, { message: 'the auto-save 30 s after the edit' })
    .toBe('autosave edited');
  const saved = await read(api, nb.id);
  expect(saved.version).toBe(2);
  expect(saved.cells[0].content).toBe('SELECT 1 AS one');
  await expect(page.getByTestId('save-state')).toHaveText('Saved, version 2');
});

test('51 saved edits leave 50 undo steps, and redo steps forward again', async ({ page, api }) => {
  const nb = await createNotebook(api, { title: 'u0', cells: [] });
  await page.goto(`/notebooks/${nb.id}`);
  const title = page.getByLabel('Title', { exact: true });
  await expect(title).toHaveValue('u0');
  for (let i = 1; i <= 51; i++) {
    await title.fill(`u${i}`);
    await page.getByRole('button', { name: 'Save now' }).click();
    await expect(page.getByTestId('save-state')).toHaveText(`Saved, version ${i + 1}`);
  }
  const undo = page.getByRole('button', { name: 'Undo' });
  for (let i = 50; i >= 1; i--) {
    await undo.click();
    await expect(title).toHaveValue(`u${i}`);
  }
  await expect(undo).toBeDisabled();
  const server = await read(api, nb.id);
  expect([server.title, server.can_undo]).toEqual(['u1', false]);
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(title).toHaveValue('u2');
});

test('a newer server copy brings the prompt: reload takes it, overwrite replaces it', async ({ page, api }) => {
  const nb = await createNotebook(api, { title: 'shared', cells: [] });
  await page.goto(`/notebooks/${nb.id}`);
  const title = page.getByLabel('Title', { exact: true });
  await expect(title).toHaveValue('shared');
  const put = (t: string, version: number) =>
    api.put(`/api/notebooks/${nb.id}`, { data: { title: t, cells: [] }, headers: { 'If-Match': String(version) } });
  expect((await put('theirs', 1)).status()).toBe(200);
  await title.fill('mine');
  await page.keyboard.press('ControlOrMeta+s');
  const dialog = page.getByRole('alertdialog', { name: 'The server copy is newer' });
  await expect(dialog).toContainText('it is at version 2');
  await dialog.getByRole('button', { name: 'Reload the server copy' }).click();
  await expect(title).toHaveValue('theirs');
  await expect(dialog).toHaveCount(0);

  expect((await put('theirs again', 2)).status()).toBe(200);
  await title.fill('mine after all');
  await page.getByRole('button', { name: 'Save now' }).click();
  await dialog.getByRole('button', { name: 'Overwrite with my copy' }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => (await read(api, nb.id)).title).toBe('mine after all');
});

test('export downloads the notebook as SQL (from the keyboard); a cell and run all show their outputs', async ({
  page,
  api,
}) => {
  const nb = await createNotebook(api, {
    title: 'Export me',
    cells: [
      { type: 'markdown', content: '# Totals' },
      { type: 'sql', content: 'SELECT 42 AS answer' },
      { type: 'sql', content: 'SELECT count(*) AS n FROM demo_sales.sales.orders' },
    ],
  });
  await page.goto(`/notebooks/${nb.id}`);
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Export me');
  const button = page.getByRole('button', { name: 'Export as SQL' });
  await tabTo(page, button);
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe('Export_me.sql');
  const expected = await (await api.post(`/api/notebooks/${nb.id}/export`)).text();
  expect(await readFile((await download.path())!, 'utf8')).toBe(expected);
  expect(expected).toContain('SELECT 42 AS answer');

  await page.getByRole('button', { name: 'Run cell 2' }).click();
  await expect(page.getByTestId('cell-output-2')).toContainText('SUCCEEDED');
  await expect(page.getByTestId('cell-output-2').locator('td')).toHaveText('42');

  await page.getByRole('button', { name: 'Run all' }).click();
  const status = page.getByTestId('run-all-status');
  await expect(status).toContainText('job');
  const jobId = (await status.getByRole('link').textContent())!.replace('job ', '');
  expect((await jobEnded(api, jobId)).status).toBe('completed');
  const n = (await read(api, nb.id)).cells[2].output!.rows[0][0];
  await expect(page.getByTestId('cell-output-3').locator('td')).toHaveText(String(n));
});

test('an exported notebook imports back as a new notebook with the same cells (the format round-trips)', async ({
  page,
  api,
}) => {
  const nb = await createNotebook(api, {
    title: 'Round trip',
    cells: [
      { type: 'markdown', content: '# Round trip\n\nOrders **by day**' },
      { type: 'sql', content: 'SELECT count(*) FROM demo_sales.sales.orders' },
      { type: 'sql', content: 'SELECT 2 AS two' },
    ],
  });
  const exported = await (await api.post(`/api/notebooks/${nb.id}/export`)).text();
  await page.goto('/notebooks');
  await page
    .getByLabel('Databricks SQL notebook file (.sql, as exported)')
    .setInputFiles({ name: 'round-trip.sql', mimeType: 'text/plain', buffer: Buffer.from(exported) });
  await page.getByLabel("Title (default: the file's first heading)").fill('Round trip imported');
  await page.getByRole('button', { name: 'Import the notebook' }).click();
  await expect(page).toHaveURL(/\/notebooks\/[^/]+$/);
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Round trip imported');
  const importedId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  expect(importedId).not.toBe(nb.id);
  const imported = await read(api, importedId);
  expect(imported.cells.map((c) => [c.type, c.content])).toEqual(nb.cells.map((c) => [c.type, c.content]));
  // Exporting the import gives the same file back.
  expect(await (await api.post(`/api/notebooks/${importedId}/export`)).text()).toBe(exported);
  // The markdown cell is shown rendered: its heading and bold text as elements, not as typed.
  const rendered = page.getByRole('region', { name: 'Cell 1 rendered' });
  await expect(rendered.getByRole('heading', { name: 'Round trip' })).toBeVisible();
  await expect(rendered.locator('strong')).toHaveText('by day');
});

test('cells move up and down from the keyboard, and the new order is what the server saves', async ({ page, api }) => {
  const nb = await createNotebook(api, {
    title: 'Reorder',
    cells: ['A', 'B', 'C'].map((x) => ({ type: 'sql', content: `SELECT '${x}'` })),
  });
  await page.goto(`/notebooks/${nb.id}`);
  await expect(page.getByRole('button', { name: 'Move cell 1 up' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Move cell 3 down' })).toBeDisabled();
  await page.getByRole('button', { name: 'Move cell 3 up' }).focus();
  await page.keyboard.press('Enter'); // C is now second, and focus follows it
  await expect(page.getByRole('button', { name: 'Move cell 2 up' })).toBeFocused();
  await page.keyboard.press('Enter'); // C is first
  await expect(page.getByTestId('cell-editor-1')).toContainText("SELECT 'C'");
  await page.keyboard.press('ControlOrMeta+s');
  await expect
    .poll(async () => (await read(api, nb.id)).cells.map((c) => c.content), { message: 'the saved order' })
    .toEqual(["SELECT 'C'", "SELECT 'A'", "SELECT 'B'"]);
  expect((await read(api, nb.id)).cells.map((c) => c.id)).toEqual([nb.cells[2].id, nb.cells[0].id, nb.cells[1].id]);
});
