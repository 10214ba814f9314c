import { expect, type Locator, type Page } from '@playwright/test';

/** Presses Tab until `target` has focus (keyboard only, as a user without a mouse would). */
export async function tabTo(page: Page, target: Locator, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reached by Tab within ${max} presses`).toBeFocused();
}

/** Picks an option of a focused <select> with the arrow keys. */
export async function arrowToOption(page: Page, select: Locator, value: string, max = 30): Promise<void> {
  for (let i = 0; i < max && (await select.inputValue()) !== value; i++) await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue(value);
}
