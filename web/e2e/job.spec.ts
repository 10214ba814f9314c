import { expect, jobEnded, startClone, test } from './fixtures';

test('cancel on the job page ends a running clone as cancelled', async ({ page, api }) => {
  const jobId = await startClone(api, {
    source_catalog: 'demo_sales',
    destination_catalog: 'demo_sales_cancel',
    parallel_tables: 1,
    throttle: { tables_per_minute: 1 },
  });
  await page.goto(`/jobs/${jobId}`);
  await expect(page.getByTestId('job-status')).toHaveText(/running/, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Cancel job' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Cancel job ${jobId}?`);
  await dialog.getByRole('button', { name: 'Cancel the job' }).click();
  await expect(page.getByTestId('job-status')).toHaveText(/cancelled/, { timeout: 60_000 });
  expect((await jobEnded(api, jobId)).status).toBe('cancelled');
});
