import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { matchPath, useLocation } from 'react-router';
import { unwrap } from '../api/errors';
import { needsSchemas } from '../manifest';
import { Console, useConsole } from './context';
import { ErrorView } from './ErrorView';

/** The OpenAPI document, read once per tab (about 2 MB) and only for pages with forms validated by its schemas. */
export function useOpenApiDocument(enabled: boolean) {
  const { api } = useConsole();
  return useQuery({
    queryKey: ['openapi.json'],
    queryFn: async () => (await unwrap(api.client.GET('/api/openapi.json'))) as { paths?: Record<string, never> },
    enabled,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/**
 * Shows the current page; one that needs request schemas (`needsSchemas`) waits for the document and gets it as
 * `useConsole().doc`. Other pages never wait for it, so a list paints after its own call alone.
 */
export function SchemaGate({ children }: { children: ReactNode }) {
  const ctx = useConsole();
  const { pathname } = useLocation();
  const page = ctx.pages.find((p) => matchPath(p.path, pathname));
  const wanted = Boolean(page && needsSchemas(page));
  const doc = useOpenApiDocument(wanted);
  if (!wanted) return children;
  if (doc.isError) return <ErrorView error={doc.error} onRetry={() => void doc.refetch()} />;
  if (!doc.data) return <p role="status">Loading the API&apos;s request schemas…</p>;
  return <Console.Provider value={{ ...ctx, doc: doc.data }}>{children}</Console.Provider>;
}
