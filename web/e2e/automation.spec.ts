import { axeViolations, expect, test } from './fixtures';
import { arrowToOption } from './keyboard';

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

test('automation: a playbook built from scratch (trigger, actions added and removed, typed parameters) is stored as built and runs as a dry run', async ({
  page,
  api,
}) => {
  test.setTimeout(120_000);
  const name = `scratch-${Date.now().toString(36)}`;
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/playbooks') posts.push(r.url());
  });
  await page.goto('/automation');
  const form = page.getByRole('form', { name: 'New playbook from scratch' });
  await form.getByLabel('Name (required)').fill(name);
  const trigger = form.getByLabel('Event or schedule');
  await trigger.focus();
  await arrowToOption(page, trigger, 'schedule');
  await form.getByLabel('Cron expression (required)').fill('bad');
  await form.getByLabel('Action 1 channel value').fill('in_app');
  await form.getByLabel('Action 1 message value').fill('Checked {{event.table_fqn}}');

  // A second action, its type changed (its usual parameters offered), a third added and removed.
  await form.getByRole('button', { name: 'Add an action' }).click();
  await form.getByLabel('Action 2 type').selectOption('tag_table');
  await form.getByLabel('Action 2 table_fqn value').fill('demo_sales.sales.orders');
  const tags = form.getByLabel('Action 2 tags value');
  await tags.fill('{reviewed: e2e');
  await form.getByRole('button', { name: 'Add an action' }).click();
  await expect(form.getByTestId('playbook-action')).toHaveCount(3);
  await form.getByRole('button', { name: 'Remove action 3' }).click();
  await expect(form.getByTestId('playbook-action')).toHaveCount(2);

  // Checked before sending: the unreadable JSON is flagged at its parameter, nothing is sent.
  const submit = form.getByRole('button', { name: 'Create this playbook' });
  await submit.click();
  await expect(tags).toHaveAttribute('aria-invalid', 'true');
  await expect(tags).toBeFocused();
  expect(posts).toEqual([]);
  await tags.fill('{"reviewed": "e2e"}');

  // The server refuses the schedule trigger's cron: its message, as the API gives it, under the cron field.
  const body = {
    name,
    trigger_type: 'schedule',
    trigger_config: { cron: 'bad', timezone: 'UTC' },
    actions: [{ type: 'notify', params: { channel: 'in_app', message: 'x' } }],
  };
  const refused = await api.post('/api/playbooks', { data: body });
  expect(refused.status()).toBeGreaterThanOrEqual(400);
  const detail = (
    (await refused.json()) as { error: { details: { path: string; message: string }[] } }
  ).error.details.find((x) => x.path.replace(/^body\./, '') === 'trigger_config.cron');
  expect(detail, 'the server names trigger_config.cron').toBeDefined();
  await submit.click();
  const cron = form.getByLabel('Cron expression (required)');
  await expect(cron).toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('#field-trigger_config\\.cron-error')).toContainText(detail!.message);
  expect(posts).toHaveLength(1);

  // On data-quality failures instead: created.
  await trigger.selectOption('dq_failure');
  await form.getByLabel('Least severity').selectOption('error');
  await submit.click();
  await expect(page.getByTestId('playbook-created')).toContainText(name);
  const list = (await (await api.get('/api/playbooks')).json()) as {
    playbooks: { playbook_id: string; name: string; trigger_type: string; trigger_config: object; actions: object[] }[];
  };
  const stored = list.playbooks.find((p) => p.name === name)!;
  expect(stored).toMatchObject({
    trigger_type: 'dq_failure',
    trigger_config: { min_severity: 'error' },
    actions: [
      { type: 'notify', on_failure: 'stop', params: { channel: 'in_app', message: 'Checked {{event.table_fqn}}' } },
      {
        type: 'tag_table',
        on_failure: 'stop',
        params: { table_fqn: 'demo_sales.sales.orders', tags: { reviewed: 'e2e' } },
      },
    ],
  });

  // It runs: a dry run from its row, the execution as the API's history has it.
  const row = page.getByTestId('playbook-row').filter({ hasText: name });
  await expect(row).toContainText('notify → tag_table');
  await expect(page.getByLabel('Dry run (show what each action would do, do nothing)')).toBeChecked();
  await row.getByRole('button', { name: `Run ${name} now` }).click();
  const exec = page.getByTestId('playbook-execution');
  await expect(exec).toContainText(`${name}`);
  await expect(exec).toContainText('(dry run)');
  const history = (await (await api.get(`/api/playbooks/${stored.playbook_id}/history`)).json()) as {
    executions: { status: string; dry_run: boolean; actions: { type: string; status: string }[] }[];
  };
  expect(history.executions).toHaveLength(1);
  expect(history.executions[0]).toMatchObject({
    dry_run: true,
    actions: [
      { type: 'notify', status: 'dry_run' },
      { type: 'tag_table', status: 'dry_run' },
    ],
  });
  await expect(exec.locator('[data-status]').first()).toHaveAttribute('data-status', history.executions[0].status);
  expect(await axeViolations(page)).toEqual([]);
});
