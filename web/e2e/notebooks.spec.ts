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
