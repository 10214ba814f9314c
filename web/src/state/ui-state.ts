/**
 * UI state (drafts, filters, tabs, editor text) in localStorage with the time it was saved; a value older than
 * 30 minutes is dropped when read. API keys never go here (state/api-key.ts keeps them per tab).
 */
export const UI_STATE_TTL_MS = 30 * 60 * 1000;
const PREFIX = 'lakeward.ui.';

interface Stored<T> {
  saved_at: number;
  value: T;
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function createUiState(storage: () => KeyValueStorage | undefined, now: () => number = Date.now) {
  return {
    load<T>(name: string): T | undefined {
      const s = storage();
      const raw = s?.getItem(PREFIX + name);
      if (!s || raw == null) return undefined;
      try {
        const stored = JSON.parse(raw) as Stored<T>;
        if (typeof stored.saved_at !== 'number' || now() - stored.saved_at > UI_STATE_TTL_MS) {
          s.removeItem(PREFIX + name);
          return undefined;
        }
        return stored.value;
      } catch {
        s.removeItem(PREFIX + name);
        return undefined;
      }
    },
    save<T>(name: string, value: T): void {
      if (/key|token|secret|password/i.test(name)) throw new Error(`UI state never holds credentials (${name})`);
      storage()?.setItem(PREFIX + name, JSON.stringify({ saved_at: now(), value } satisfies Stored<T>));
    },
    remove(name: string): void {
      storage()?.removeItem(PREFIX + name);
    },
  };
}

export const uiState = createUiState(() => (typeof localStorage === 'undefined' ? undefined : localStorage));
