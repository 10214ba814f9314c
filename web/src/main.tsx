import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createApi, loadConsoleConfig } from './api/client';
import { ApiError, unwrap } from './api/errors';
import { availablePages } from './manifest';
import { routesFor } from './pages';
import { Console } from './shell/context';
import { Layout } from './shell/Layout';
import './styles.css';

/** Retries a network failure or a 5xx three times; a 4xx is the answer and shows at once. */
const retry = (count: number, err: unknown) => count < 3 && (!(err instanceof ApiError) || err.info.retryable);

async function start() {
  const root = createRoot(document.getElementById('root')!);
  const config = await loadConsoleConfig();
  const api = createApi(config.api_url);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry, staleTime: 5_000 } } });
  const doc = (await unwrap(api.client.GET('/api/openapi.json'))) as {
    paths?: Record<string, Record<string, unknown>>;
  };
  const pages = availablePages(doc);
  const router = createBrowserRouter([{ element: <Layout />, children: routesFor(pages) }]);
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Console.Provider value={{ config, api, doc, pages }}>
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
