import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from './stack';

/** `page` with the suite's API key already in sessionStorage (as after answering the key dialog). */
export const test = base.extend<{ api: APIRequestContext }>({
  page: async ({ page }, use, testInfo) => {
    if (!testInfo.tags.includes('@no-key')) {
      await page.addInitScript((key) => sessionStorage.setItem('lakeward.api_key', key), E2E.apiKey);
    }
    await use(page);
  },
  api: async ({ playwright }, use) => {
    const ctx = await playwright.request.newContext({
      baseURL: E2E.webUrl,
      extraHTTPHeaders: { Authorization: `Bearer ${E2E.apiKey}` },
    });
    await use(ctx);
    await ctx.dispose();
  },
});
export { expect };

/** Starts a clone through the API (not the console) and returns its job id. */
export async function startClone(api: APIRequestContext, body: Record<string, unknown>): Promise<string> {
  const res = await api.post('/api/clone', { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { job_id: string }).job_id;
}

/** Polls the job through the API until it ends; says what it waited for when it does not. */
export async function jobEnded(api: APIRequestContext, jobId: string, ms = 60_000): Promise<Record<string, any>> {
  let last: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        last = await (await api.get(`/api/jobs/${jobId}`)).json();
        return ['completed', 'failed', 'cancelled', 'aborted'].includes(last.status);
      },
      { message: `job ${jobId} to end`, timeout: ms },
    )
    .toBe(true);
  return last;
}

/** axe-core with WCAG 2.x A and AA rules: the violations (ids and targets) on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Each page in both themes: no WCAG A/AA violation, a full-page screenshot in e2e/artifacts. */
export async function axeAndScreenshots(page: Page, pages: (readonly [string, string])[]): Promise<string[]> {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.addInitScript((t) => localStorage.setItem('lakeward.theme', t), theme);
    for (const [name, path] of pages) {
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await page.waitForLoadState('networkidle').catch(() => undefined);
      found.push(...(await axeViolations(page)).map((v) => `${name} (${theme}) ${v}`));
      await page.screenshot({ path: `e2e/artifacts/${name}-${theme}.png`, fullPage: true });
    }
  }
  return found;
}

/** The JSON body of an API answer that must be 2xx (the failure names the URL, status and body). */
export async function json<T = any>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}
