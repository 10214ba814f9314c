import { describe, expect, it } from 'vitest';
import { createUiState, UI_STATE_TTL_MS } from './ui-state';

function memory() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  };
}

describe('UI state', () => {
  it('gives a value back until 30 minutes after it was saved, then drops it', () => {
    const store = memory();
    let now = 1_000_000;
    const ui = createUiState(
      () => store,
      () => now,
    );
    ui.save('draft', { a: 1 });
    now += UI_STATE_TTL_MS - 60_000;
    expect(ui.load('draft')).toEqual({ a: 1 });
    now += 120_000;
    expect(ui.load('draft')).toBeUndefined();
    expect(store.m.size).toBe(0);
  });

  it('refuses to hold credentials', () => {
    const ui = createUiState(() => memory());
    expect(() => ui.save('api_key', 'x')).toThrow(/credentials/);
  });
});
