import type { APIRequestContext, Page } from '@playwright/test';
import { axeViolations, expect, jobEnded, test } from './fixtures';

interface Case {
  case_id: string;
  type: string;
  status: string;
  score: number | null;
  records: { system: string; record_id: string }[];
  attributes: { attribute: string; values: (string | null)[] }[];
  details: { weakest_pair?: { system: string; record_id: string }[] } | null;
  assigned_to: string | null;
  resolution: Record<string, unknown> | null;
}

/** Synthetic people from three systems, ingested and matched through the API: the run opens stewardship cases. */
async function matchedPeople(api: APIRequestContext): Promise<void> {
  const open = await api.get('/api/mdm/stewardship?status=open&entity_type=person');
  if (((await open.json()) as Case[]).length >= 6) return; // a stack reused from an earlier run
  const gen = await api.post('/api/mdm/synthetic', {
    data: { catalog: 'mdm_raw', schema: 'people', records: 300, seed: 7 },
  });
  expect(gen.status(), await gen.text()).toBe(201);
  const syn = (await gen.json()) as { model: unknown; sources: unknown[] };
  expect((await api.put('/api/mdm/models/person', { data: syn.model })).status()).toBeLessThan(300);
  for (const s of syn.sources) expect([201, 409]).toContain((await api.post('/api/mdm/sources', { data: s })).status());
  for (const [path, body] of [
    ['/api/mdm/ingest', { entity_type: 'person' }],
    ['/api/mdm/match/run', { entity_type: 'person' }],
  ] as const) {
    const res = await api.post(path, { data: body });
    expect(res.status(), await res.text()).toBe(202);
    expect((await jobEnded(api, ((await res.json()) as { job_id: string }).job_id, 120_000)).status).toBe('completed');
  }
}

async function cases(api: APIRequestContext, query = 'status=open'): Promise<Case[]> {
  return (await (await api.get(`/api/mdm/stewardship?${query}`)).json()) as Case[];
}

const label = (r: { system: string; record_id: string }) => `${r.system}:${r.record_id}`;

/** The first of `types` with at least `min` open cases (which types a run opens depends on its scores). */
async function typeWithCases(api: APIRequestContext, types: string[], min = 1): Promise<string> {
  const open = await cases(api);
  const count = (t: string) => open.filter((c) => c.type === t).length;
  const found = types.find((t) => count(t) >= min);
  expect(found, `open cases by type: ${JSON.stringify(types.map((t) => [t, count(t)]))}`).toBeDefined();
  return found!;
}
const PAIR_TYPES = ['suspected_duplicate', 'negative_match_candidate'];
const EDITABLE_TYPES = ['match_review', 'conflict_resolution'];

async function showType(page: Page, type: string) {
  await page.getByLabel('Type').selectOption(type);
  await expect(page.getByTestId('mdm-case').first()).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(240_000);
  const { E2E } = await import('./stack');
  const api = await playwright.request.newContext({
    baseURL: E2E.webUrl,
    extraHTTPHeaders: { Authorization: `Bearer ${E2E.apiKey}` },
  });
  await matchedPeople(api);
  await api.dispose();
});

test('the stewardship queue lists the API cases soonest due first; j/k move; records side by side with differing attributes and the score', async ({
  page,
  api,
}) => {
  const all = await cases(api);
  expect(all.length).toBeGreaterThan(2);
  await page.goto('/mdm/stewardship');
  await expect(page.getByText(`${all.length} open cases`)).toBeVisible();
  const items = page.getByTestId('mdm-case');
  await expect(items).toHaveCount(all.length);
  const view = page.getByTestId('mdm-case-view');
  for (const [i, c] of all.slice(0, 3).entries()) {
    if (i > 0) await page.keyboard.press('j');
    await expect(items.nth(i)).toHaveAttribute('aria-current', 'true');
    await expect(view.getByRole('heading', { level: 2 })).toContainText(c.case_id);
    await expect(view.getByTestId('case-score')).toHaveText(`${c.score} of 100`);
    await expect(view.getByTestId('sla-clock')).toContainText(/due in|overdue by/);
  }
  await page.keyboard.press('k');
  await expect(items.nth(1)).toHaveAttribute('aria-current', 'true');

  // A pair case: both records as columns, each attribute's two values, differing ones marked.
  const pairType = await typeWithCases(api, PAIR_TYPES);
  await showType(page, pairType);
  const pair = (await cases(api, `status=open&type=${pairType}`))[0];
  await expect(view.getByRole('heading', { level: 2 })).toContainText(pair.case_id);
  const table = view.getByTestId('case-records');
  for (const r of pair.records) await expect(table.getByRole('columnheader', { name: label(r) })).toBeVisible();
  const differing = pair.attributes.find(
    (a) => String(a.values[0] ?? '').toLowerCase() !== String(a.values[1] ?? '').toLowerCase(),
  );
  const same = pair.attributes.find((a) => a.values[0] !== null && a.values[0] === a.values[1]);
  if (differing) {
    const row = table.getByTestId('case-attribute').filter({ hasText: differing.attribute });
    await expect(row).toHaveAttribute('data-differs', 'true');
    await expect(row.getByRole('rowheader')).toContainText(`≠ ${differing.attribute}`);
  }
  if (same) {
    const row = table
      .getByTestId('case-attribute')
      .filter({ has: page.getByRole('rowheader', { name: same.attribute, exact: true }) });
    await expect(row).not.toHaveAttribute('data-differs', 'true');
    await expect(row.getByRole('cell').first()).toHaveText(String(same.values[0]));
  }
});

test('reject with a negative match, approve, reassign and edit resolve the cases through the API', async ({
  page,
  api,
}) => {
  await page.goto('/mdm/stewardship');
  const view = page.getByTestId('mdm-case-view');

  // Reject + keep apart.
  const pairType = await typeWithCases(api, [...PAIR_TYPES].reverse(), 3);
  const editType = await typeWithCases(api, EDITABLE_TYPES);
  await showType(page, pairType);
  const nm = (await cases(api, `status=open&type=${pairType}`))[0];
  await expect(view.getByRole('heading', { level: 2 })).toContainText(nm.case_id);
  await view.getByLabel('and keep these records apart (negative match)').check();
  await view.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByTestId('mdm-message')).toContainText(`Case ${nm.case_id} resolved`);
  await expect(page.getByTestId('mdm-message')).toContainText('negative-match rule');
  const rejected = (await (await api.get(`/api/mdm/stewardship/${nm.case_id}`)).json()) as Case;
  expect(rejected.status).toBe('resolved');
  expect(rejected.resolution).toMatchObject({ action: 'reject' });
  const rules = (await (await api.get('/api/mdm/negative-match?entity_type=person')).json()) as unknown;
  expect(JSON.stringify(rules)).toContain(nm.records[0].record_id);

  // Approve the next one.
  const next = (await cases(api, `status=open&type=${pairType}`))[0];
  await expect(view.getByRole('heading', { level: 2 })).toContainText(next.case_id);
  await view.getByRole('button', { name: 'Approve match' }).click();
  await expect(page.getByTestId('mdm-message')).toContainText(`Case ${next.case_id} resolved`);
  expect(((await (await api.get(`/api/mdm/stewardship/${next.case_id}`)).json()) as Case).resolution).toMatchObject({
    action: 'approve_match',
  });

  // Reassign the one after.
  const third = (await cases(api, `status=open&type=${pairType}`))[0];
  await expect(view.getByRole('heading', { level: 2 })).toContainText(third.case_id);
  await view.getByLabel('Reassign to (key name)').fill('alice');
  await view.getByRole('button', { name: 'Reassign' }).click();
  await expect(page.getByTestId('mdm-message')).toContainText(`Case ${third.case_id} assigned to alice`);
  await expect(view.getByTestId('case-assignee')).toHaveText('alice');
  expect(((await (await api.get(`/api/mdm/stewardship/${third.case_id}`)).json()) as Case).assigned_to).toBe('alice');

  // Edit a match review's values.
  await showType(page, editType);
  const review = (await cases(api, `status=open&type=${editType}`))[0];
  await expect(view.getByRole('heading', { level: 2 })).toContainText(review.case_id);
  if (editType === 'match_review') {
    const pairCols = review.details?.weakest_pair ?? review.records.slice(0, 2);
    for (const r of pairCols) await expect(view.getByRole('columnheader', { name: label(r) })).toBeVisible();
  }
  await view.getByRole('button', { name: 'Edit values' }).click();
  const attribute = (review.attributes.find((a) => a.attribute === 'last_name') ?? review.attributes[0]).attribute;
  await view.getByLabel(attribute, { exact: true }).fill('Steward-Set');
  await view.getByRole('button', { name: 'Save the values' }).click();
  await expect(page.getByTestId('mdm-message')).toContainText(`Case ${review.case_id} resolved`);
  const edited = (await (await api.get(`/api/mdm/stewardship/${review.case_id}`)).json()) as Case;
  expect(edited.resolution).toMatchObject({ action: 'override' });
  expect(JSON.stringify(edited.resolution)).toContain('Steward-Set');
});

test('the stewardship queue with a case open has no WCAG A/AA violations in both themes', async ({ page, api }) => {
  test.setTimeout(300_000);
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.addInitScript((t) => localStorage.setItem('lakeward.theme', t), theme);
    await page.goto('/mdm/stewardship');
    await showType(page, await typeWithCases(api, EDITABLE_TYPES));
    await expect(page.getByTestId('case-records')).toBeVisible();
    await page.getByRole('button', { name: 'Edit values' }).click();
    await expect(page.getByRole('button', { name: 'Save the values' })).toBeVisible();
    found.push(...(await axeViolations(page)).map((v) => `mdm (${theme}) ${v}`));
    await page.screenshot({ path: `e2e/artifacts/mdm-stewardship-case-${theme}.png`, fullPage: true });
  }
  expect(found).toEqual([]);
});
