import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { apiKeyStore } from '../state/api-key';

/**
 * Asked once on the first 401 (a modal <dialog>); the key is kept for the tab (sessionStorage) and sent as Bearer.
 * A refused key brings the dialog back with the server's 401 message.
 */
export function ApiKeyDialog() {
  const pending = useSyncExternalStore(apiKeyStore.subscribe, apiKeyStore.pending);
  const [key, setKey] = useState('');
  const ref = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (pending && !d.open) d.showModal();
    if (!pending && d.open) d.close();
  }, [pending]);
  const hadKey = Boolean(apiKeyStore.get());
  return (
    <dialog ref={ref} aria-labelledby="api-key-title" className="dialog" onCancel={(e) => e.preventDefault()}>
      {pending && (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            if (!key.trim()) return;
            apiKeyStore.set(key.trim());
            setKey('');
            void queryClient.invalidateQueries();
          }}
        >
          <h2 id="api-key-title">API key</h2>
          <p role="alert" data-testid="api-key-message">
            {hadKey ? `The key was refused: ${pending.message}` : pending.message}
          </p>
          <div className="field">
            <label htmlFor="api-key-input">API key for this tab</label>
            <input
              id="api-key-input"
              type="password"
              autoComplete="off"
              required
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
          </div>
          <button type="submit">Use this key</button>
        </form>
      )}
    </dialog>
  );
}
