import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiKeyStore } from '../state/api-key';

/** sessionStorage as the browser has it, for the key store. */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

/** Each request waits until the test answers it: 401 unless it carries `Bearer good`. */
function heldFetch() {
  const held: { request: Request; answer: () => void }[] = [];
  const fetch = (input: Request) =>
    new Promise<Response>((resolve) => {
      const ok = input.headers.get('Authorization') === 'Bearer good';
      held.push({
        request: input,
        answer: () =>
          resolve(
            ok
              ? Response.json({ jobs: [] })
              : Response.json({ error: { message: 'Invalid API key' } }, { status: 401 }),
          ),
      });
    });
  return { fetch, held };
}

describe('the API key on calls', () => {
  beforeEach(() => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    apiKeyStore.dismiss();
  });

  it('a 401 to a call sent with a key replaced since asks for nothing; one with the current key asks again', async () => {
    const { fetch, held } = heldFetch();
    vi.stubGlobal('fetch', fetch);
    const { createApi } = await import('./client');
    const { client } = createApi('http://api.test');
    apiKeyStore.set('bad');
    const stale = client.GET('/api/clone/jobs');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    apiKeyStore.set('good');
    held[0].answer();
    await stale;
    expect(apiKeyStore.pending()).toBeNull();

    apiKeyStore.set('worse');
    const refused = client.GET('/api/clone/jobs');
    await vi.waitFor(() => expect(held).toHaveLength(2));
    held[1].answer();
    await refused;
    expect(apiKeyStore.pending()).toEqual({ message: 'Invalid API key' });
  });
});
