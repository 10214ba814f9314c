import { createContext, useContext } from 'react';
import type { Api, ConsoleConfig } from '../api/client';
import type { components } from '../api/schema';
import type { PageEntry } from '../manifest';

export type Role = components['schemas']['Caller']['role'];

export interface ConsoleContext {
  config: ConsoleConfig;
  api: Api;
  /**
   * The server's OpenAPI document, for ajv pre-validation with its request schemas. Loaded (and cached) before a
   * page whose manifest entry needs schemas is shown (`needsSchemas`); `{}` on other pages.
   */
  doc: { paths?: Record<string, Record<string, unknown>>; components?: unknown };
  pages: PageEntry[];
  /** Every operation of the server ("<method> <OpenAPI path>") with the least role it needs (null: open). */
  operations: ReadonlyMap<string, Role | null>;
}

export const Console = createContext<ConsoleContext | null>(null);

export function useConsole(): ConsoleContext {
  const ctx = useContext(Console);
  if (!ctx) throw new Error('useConsole outside the console');
  return ctx;
}
