import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { Button, Dialog, Heading, Input, Label, Modal, TextField } from 'react-aria-components';
import { apiKeyStore } from '../state/api-key';

/** Asked once on the first 401; the key is kept for the tab (sessionStorage) and sent as Bearer. */
export function ApiKeyDialog() {
  const pending = useSyncExternalStore(apiKeyStore.subscribe, apiKeyStore.pending);
  const [key, setKey] = useState('');
  const queryClient = useQueryClient();
  if (!pending) return null;
  const hadKey = Boolean(apiKeyStore.get());
  return (
    <Modal isOpen isDismissable={false} className="modal">
      <Dialog aria-labelledby="api-key-title" className="dialog">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!key.trim()) return;
            apiKeyStore.set(key.trim());
            setKey('');
            void queryClient.invalidateQueries();
          }}
        >
          <Heading slot="title" id="api-key-title">
            API key
          </Heading>
          <p role="alert" data-testid="api-key-message">
            {hadKey ? `The key was refused: ${pending.message}` : pending.message}
          </p>
          <TextField value={key} onChange={setKey} type="password" autoFocus isRequired>
            <Label>API key for this tab</Label>
            <Input />
          </TextField>
          <Button type="submit">Use this key</Button>
        </form>
      </Dialog>
    </Modal>
  );
}
