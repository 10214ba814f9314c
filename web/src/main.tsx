import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createApi, loadConsoleConfig, type Api } from './api/client';
import { ApiError, unwrap } from './api/errors';
import { availablePages, operationsOfDocument } from './manifest';
import { routesFor } from './pages';
import { prefetchPageData } from './pages/prefetch';
import { Console, type Role } from './shell/context';
import { Layout } from './shell/Layout';
import './styles.css';

/** Retries a network failure or a 5xx three times; a 4xx is the answer and shows at once. */
const retry = (count: number, err: unknown) => count < 3 && (!(err instanceof ApiError) || err.info.retryable);

/**
 * The server's operations with their roles: `GET /api/web/operations` (a few KB); a server without it answers 404
 * and the full OpenAPI document is read instead (every operation, no roles).
 */
async function loadOperations(api: Api): Promise<Map<string, Role | null>> {
  try {
    const body = await unwrap(api.client.GET('/api/web/operations'));
    return new Map(body.operations.map((o) => [o.operation, o.role]));
  } catch (err) {
    if (!(err instanceof ApiError) || err.info.status !== 404) throw err;
    const doc = (await unwrap(api.client.GET('/api/openapi.json'))) as Parameters<typeof operationsOfDocument>[0];
    return new Map([...operationsOfDocument(doc)].map((op) => [op, null]));
  }
}

async function start() {
  const root = createRoot(document.getElementById('root')!);
  // The operations are asked of this origin while /config.json loads: with the usual api_url '' (the console's
  // server proxies /api) nothing waits on the config but the config itself.
  const sameOrigin = loadOperations(createApi(''));
  sameOrigin.catch(() => undefined);
  const config = await loadConsoleConfig();
  const api = createApi(config.api_url);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry, staleTime: 5_000 } } });
  // The opened page's own call starts now, beside the operations, not after the shell and the page render.
  let pathname = window.location.pathname;
  prefetchPageData(pathname, api, queryClient);
  const operations = await (config.api_url === '' ? sameOrigin : loadOperations(api));
  const pages = availablePages(new Set(operations.keys()));
  const router = createBrowserRouter([{ element: <Layout />, children: routesFor(pages) }]);
  // Every navigation starts the new page's call at once (the page finds it in flight when it renders).
  router.subscribe((state) => {
    if (state.location.pathname === pathname) return;
    pathname = state.location.pathname;
    prefetchPageData(pathname, api, queryClient);
  });
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Console.Provider value={{ config, api, doc: {}, pages, operations }}>
          <RouterProvider router={router} />
        </Console.Provider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

start().catch((err: unknown) => {
  const el = document.getElementById('root')!;
  el.textContent = '';
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.textContent = `The console could not start: ${err instanceof ApiError ? err.info.message : String(err)}`;
  el.append(p);
});
