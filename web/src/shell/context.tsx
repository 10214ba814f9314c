import { createContext, useContext } from 'react';
import type { Api, ConsoleConfig } from '../api/client';
import type { PageEntry } from '../manifest';

export interface ConsoleContext {
  config: ConsoleConfig;
  api: Api;
  /** The server's OpenAPI document (request schemas for ajv, operations for the manifest). */
  doc: { paths?: Record<string, Record<string, unknown>> };
  pages: PageEntry[];
}

export const Console = createContext<ConsoleContext | null>(null);

export function useConsole(): ConsoleContext {
  const ctx = useContext(Console);
  if (!ctx) throw new Error('useConsole outside the console');
  return ctx;
}
