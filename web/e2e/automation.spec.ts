import { axeViolations, expect, test } from './fixtures';

interface Run {
  run_id: string;
  pipeline_name: string;
  status: string;
}

test('automation: a pipeline made from a template runs and is cancelled from the page; a playbook made from a template runs as a dry run', async ({
  page,
  api,
}) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36);
  const pipeName = `slow-copy-${suffix}`;
  await page.goto('/automation');

  // Overrides that are not JSON are flagged at their field before anything is sent.
  await page.getByLabel('Pipeline template').selectOption('clone-and-validate');
  await page.getByLabel('Pipeline name').fill(pipeName);
  const overrides = page.getByLabel('Step config overrides (JSON: step name → config fields)');
  await overrides.fill('{"clone": ');
  await page.getByRole('button', { name: 'Create the pipeline' }).click();
  await expect(overrides).toBeFocused();
  await expect(overrides).toHaveAttribute('aria-invalid', 'true');

  const dest = `demo_sales_pipe_${suffix}`;
  await overrides.fill(
    JSON.stringify({
      clone: {
        source_catalog: 'demo_sales',
        destination_catalog: dest,
        clone_type: 'DEEP',
        parallel_tables: 1,
        throttle: { tables_per_minute: 1 },
      },
      validate: { source_catalog: 'demo_sales', destination_catalog: dest },
    }),
  );
  await page.getByRole('button', { name: 'Create the pipeline' }).click();
  const pipeRow = page.getByTestId('pipeline-row').filter({ hasText: pipeName });
  await expect(pipeRow).toContainText('clone (clone) → validate (validate)');
  const pipes = (await (await api.get('/api/pipeline/pipelines')).json()) as {
    pipelines: { name: string; steps: { config: Record<string, unknown> }[] }[];
  };
  expect(pipes.pipelines.find((p) => p.name === pipeName)?.steps[0].config).toMatchObject({
    destination_catalog: dest,
  });

  await pipeRow.getByRole('button', { name: `Run ${pipeName}` }).click();
  const runRow = page.getByTestId('pipeline-run').filter({ hasText: pipeName });
  await expect(runRow.locator('[data-status]').first()).toHaveAttribute('data-status', /queued|running/);
  const runId = (await runRow.getByRole('link').first().textContent())!;
  await expect(runRow.locator('[data-status]').first()).toHaveAttribute('data-status', 'running', { timeout: 60_000 });
  await runRow.getByRole('button', { name: `Cancel run ${runId}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the run' }).click();
  await expect(runRow.locator('[data-status]').first()).toHaveAttribute('data-status', 'cancelled', {
    timeout: 60_000,
  });
  expect(((await (await api.get(`/api/pipeline/runs/${runId}`)).json()) as Run).status).toBe('cancelled');

  // A playbook from a template, run now as a dry run: the execution and the history are the API's.
  const pbName = `notify-${suffix}`;
  // The first template keeps a placeholder webhook secret: the server's error lands at the playbook's JSON field.
  await page.getByLabel('Playbook template').selectOption('dq-failure-notify');
  await page.getByLabel('Playbook name (required)').fill(pbName);
  await page.getByRole('button', { name: 'Create the playbook' }).click();
  const pbJson = page.getByLabel(/^Playbook \(JSON/);
  await expect(pbJson).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#playbook-json-error')).toContainText('secret');
  await page.getByLabel('Playbook template').selectOption('schema-drift-tag');
  await expect(pbJson).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Create the playbook' }).click();
  const pbRow = page.getByTestId('playbook-row').filter({ hasText: pbName });
  await expect(pbRow).toContainText('schema drift');
  await expect(page.getByLabel('Dry run (show what each action would do, do nothing)')).toBeChecked();
  await pbRow.getByRole('button', { name: `Run ${pbName} now` }).click();
  const exec = page.getByTestId('playbook-execution');
  await expect(exec).toContainText('(dry run)');
  const list = (await (await api.get('/api/playbooks')).json()) as {
    playbooks: { playbook_id: string; name: string }[];
  };
  const id = list.playbooks.find((p) => p.name === pbName)!.playbook_id;
  const history = (await (await api.get(`/api/playbooks/${id}/history`)).json()) as {
    executions: { status: string; dry_run: boolean; actions: { type: string }[] }[];
  };
  expect(history.executions[0].dry_run).toBe(true);
  await expect(exec.locator('[data-status]').first()).toHaveAttribute('data-status', history.executions[0].status);
  for (const a of history.executions[0].actions) await expect(exec).toContainText(a.type);
  await pbRow.getByRole('button', { name: `History of ${pbName}` }).click();
  await expect(page.getByTestId('playbook-history').locator('tbody tr')).toHaveCount(history.executions.length);

  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      localStorage.setItem('lakeward.theme', t);
      document.documentElement.dataset.theme = t;
    }, theme);
    found.push(...(await axeViolations(page)).map((v) => `automation (${theme}) ${v}`));
    await page.screenshot({ path: `e2e/artifacts/automation-runs-${theme}.png`, fullPage: true });
  }
  expect(found).toEqual([]);
});
