/**
 * The API key for this tab: kept in sessionStorage (gone when the tab closes, never in the UI-state store).
 * `requestKey` is called on a 401; the dialog subscribes and asks once until a key is saved.
 */
const KEY = 'lakeward.api_key';
type Listener = () => void;

export interface KeyRequest {
  message: string;
}

function createApiKeyStore(storage: () => Storage | undefined) {
  let pending: KeyRequest | null = null;
  const listeners = new Set<Listener>();
  const emit = () => listeners.forEach((l) => l());
  return {
    get: (): string | null => storage()?.getItem(KEY) ?? null,
    set(key: string) {
      storage()?.setItem(KEY, key);
      pending = null;
      emit();
    },
    clear() {
      storage()?.removeItem(KEY);
      emit();
    },
    requestKey(message: string) {
      if (pending?.message === message) return;
      pending = { message };
      emit();
    },
    pending: (): KeyRequest | null => pending,
    dismiss() {
      pending = null;
      emit();
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export const apiKeyStore = createApiKeyStore(() =>
  typeof sessionStorage === 'undefined' ? undefined : sessionStorage,
);
