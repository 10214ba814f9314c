import { axeAndScreenshots, expect, json, test } from './fixtures';
import { E2E } from './stack';

test('a contract generated from a table is published, attached and validated as the API records it', async ({
  page,
  api,
}) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Contracts' }).click();
  await page.getByLabel('Catalog', { exact: true }).fill('demo_sales');
  await page.getByLabel('Schema', { exact: true }).fill('sales');
  await page.getByLabel('Table', { exact: true }).fill('orders');
  await page.getByLabel(/^Contract name/).fill('e2e_orders');
  await page.getByRole('button', { name: 'Generate the draft' }).click();
  await expect(page).toHaveURL(/\/contracts\/e2e_orders$/, { timeout: 30_000 });
  await expect(page.getByTestId('contract-summary')).toContainText('draft');
  await expect(page.getByTestId('contract-document')).toContainText('"orders"');

  await page.getByRole('button', { name: 'Publish the draft' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish' }).click();
  await expect
    .poll(async () => (await json(await api.get('/api/governance/odcs/e2e_orders'))).latest_version, {
      message: 'the contract published',
    })
    .toBe('1.0');
  await expect(page.getByTestId('contract-summary')).toContainText('latest version 1.0');
  await expect(page.getByTestId('contract-summary').locator('[data-status]').first()).toHaveAttribute(
    'data-status',
    'active',
  );

  await page.getByLabel('Table (catalog.schema.table)').fill('demo_sales.sales.orders');
  await page.getByRole('button', { name: 'Attach', exact: true }).click();
  await expect(page.getByTestId('contract-summary')).toContainText('attached to demo_sales.sales.orders');

  await page.getByRole('button', { name: /^Validate e2e_orders/ }).click();
  const result = page.getByTestId('contract-validation');
  await expect(result).toBeVisible({ timeout: 60_000 });
  const [latest] = await json<any[]>(await api.get('/api/governance/odcs/e2e_orders/validations'));
  await expect(result.getByRole('heading', { level: 4 })).toContainText(
    `${latest.table_fqn}: ${latest.status === 'passed' ? '✓' : '✕'} ${latest.status}, ${latest.violation_count} violation`,
  );
  await expect(page.getByTestId('contract-validations').locator('tbody tr')).toHaveCount(
    (await json<any[]>(await api.get('/api/governance/odcs/e2e_orders/validations'))).length,
  );
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Contracts' }).click();
  await expect(page.getByTestId('contract-row').filter({ hasText: 'e2e_orders' })).toContainText('1.0');
});

test('compliance lists the frameworks the API has; assessing one shows its score, gaps and trend', async ({
  page,
  api,
}) => {
  const frameworks = await json<any[]>(await api.get('/api/compliance/frameworks'));
  expect(frameworks.length).toBeGreaterThan(0);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Compliance' }).click();
  const table = page.getByTestId('compliance-frameworks');
  await expect(table.locator('tbody tr')).toHaveCount(frameworks.length);
  const f = frameworks[0];
  await table.getByRole('link', { name: f.name, exact: true }).click();
  await page.getByRole('button', { name: `Assess ${f.name} now` }).click();
  const assessment = page.getByTestId('assessment');
  await expect(assessment).toBeVisible({ timeout: 60_000 });
  const trend = await json<any[]>(await api.get(`/api/compliance/frameworks/${encodeURIComponent(f.id)}/trend`));
  const score = trend[trend.length - 1].score;
  await expect(assessment).toContainText(`${Math.round(score * 1000) / 10} %`);
  await expect(assessment).toContainText(`of ${f.control_count} controls`);
  await expect(page.getByTestId('compliance-trend').locator('tbody tr')).toHaveCount(trend.length);
  const gaps = await json<any[]>(await api.get(`/api/compliance/frameworks/${encodeURIComponent(f.id)}/gaps`));
  if (gaps.length) await expect(page.getByTestId('compliance-gaps').locator('tbody tr')).toHaveCount(gaps.length);
  else await expect(page.getByText('No gap recorded')).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(f.name) })).toContainText(
    `${Math.round(score * 1000) / 10} %`,
  );
});

test('a glossary term: an empty definition is flagged before sending; created, approved and linked to a column', async ({
  page,
  api,
}) => {
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/governance/glossary') posted++;
  });
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Glossary' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Order amount e2e');
  await page.getByRole('button', { name: 'Create the term (draft)' }).click();
  await expect(page.getByLabel('Definition', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Definition', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(posted).toBe(0);
  await page.getByLabel('Definition', { exact: true }).fill('The total of an order in its currency.');
  await page.getByLabel('Tags (comma-separated)').fill('finance, e2e');
  await page.getByRole('button', { name: 'Create the term (draft)' }).click();
  await expect(page).toHaveURL(/\/glossary\/[^/]+$/);
  const termId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByTestId('term-details')).toContainText('draft');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('term-details').locator('[data-status]')).toHaveAttribute('data-status', 'approved');
  await page.getByLabel(/^Columns/).fill('demo_sales.sales.orders.amount');
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(page.getByTestId('term-links')).toContainText('demo_sales.sales.orders.amount');
  const term = await json(await api.get(`/api/governance/glossary/${termId}`));
  expect(term.status).toBe('approved');
  expect(term.linked_columns).toEqual(['demo_sales.sales.orders.amount']);
  expect(term.tags).toEqual(['finance', 'e2e']);
  await expect(page.getByTestId('term-history').locator('li')).toHaveCount(term.history.length);

  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Glossary' }).click();
  await page.getByLabel('Text in name, abbreviation or definition').fill('Order amount e2e');
  const row = page.getByTestId('glossary-row').filter({ hasText: 'Order amount e2e' });
  await expect(row).toContainText('approved');
  await expect(row).toContainText('1');
});

test('an access policy is created (a bad name flagged at its field), listed as the API has it, and deleted', async ({
  page,
  api,
}) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Policies' }).click();
  await page.getByLabel('Name', { exact: true }).fill('e2e analyst!');
  await page.getByLabel(/^Principals/).fill('e2e-analyst');
  await page.getByRole('button', { name: 'Create the policy' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Name', { exact: true }).fill('e2e-analyst-read');
  await page.getByLabel(/^Source catalogs/).fill('demo_sales');
  await page.getByLabel('read', { exact: true }).check();
  await page.getByRole('button', { name: 'Create the policy' }).click();
  const row = page.getByTestId('policy-row').filter({ hasText: 'e2e-analyst-read' });
  await expect(row).toContainText('e2e-analyst');
  await expect(row).toContainText('demo_sales');
  await expect(row.locator('[data-status]')).toHaveText('✓ allow');
  const listed = (await json<any[]>(await api.get('/api/rbac/policies'))).find((p) => p.name === 'e2e-analyst-read');
  expect(listed).toMatchObject({
    principals: ['e2e-analyst'],
    allowed_sources: ['demo_sales'],
    allowed_operations: ['read'],
  });

  await row.getByRole('button', { name: 'Delete e2e-analyst-read' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete the policy' }).click();
  await expect(page.getByTestId('policy-row').filter({ hasText: 'e2e-analyst-read' })).toHaveCount(0);
  const after = await json<any[]>(await api.get('/api/rbac/policies'));
  expect(after.map((p) => p.name)).not.toContain('e2e-analyst-read');
});

test(
  'with a viewer key the data-quality and governance actions are disabled and name the role they need',
  { tag: '@no-key' },
  async ({ page }) => {
    await page.addInitScript((key) => sessionStorage.setItem('lakeward.api_key', key), E2E.viewerKey);
    const reasonOf = async (name: string) => {
      const button = page.getByRole('button', { name, exact: true });
      await expect(button).toBeDisabled();
      const id = await button.getAttribute('aria-describedby');
      return page.locator(`[id="${id}"]`).textContent();
    };
    await page.goto('/policies');
    await expect(page.getByTestId('caller-role')).toHaveText('Key e2e-viewer: viewer');
    expect(await reasonOf('Create the policy')).toBe('Needs the admin role; your key e2e-viewer has the viewer role.');
    await page.goto('/glossary');
    expect(await reasonOf('Create the term (draft)')).toMatch(
      /^Needs the (editor|steward|admin) role; your key e2e-viewer/,
    );
    await page.goto('/quality/checks');
    expect(await reasonOf('Create the check')).toMatch(/^Needs the (editor|steward|admin) role; your key e2e-viewer/);
  },
);

test('the governance pages have no WCAG A/AA violations in both themes (screenshots in e2e/artifacts)', async ({
  page,
  api,
}) => {
  const contracts = await json<any[]>(await api.get('/api/governance/odcs'));
  const terms = await json<any[]>(await api.get('/api/governance/glossary'));
  const frameworks = await json<any[]>(await api.get('/api/compliance/frameworks'));
  const pages: (readonly [string, string])[] = [
    ['contracts', '/contracts'],
    ['compliance', frameworks[0] ? `/compliance/${encodeURIComponent(frameworks[0].id)}` : '/compliance'],
    ['glossary', '/glossary'],
    ['policies', '/policies'],
  ];
  if (contracts[0]) pages.push(['contract', `/contracts/${encodeURIComponent(contracts[0].name)}`]);
  if (terms[0]) pages.push(['glossary-term', `/glossary/${encodeURIComponent(terms[0].term_id)}`]);
  expect(await axeAndScreenshots(page, pages)).toEqual([]);
});
