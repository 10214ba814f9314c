import { InvalidWarehouseError } from '../errors';
import { resolveAuth, type DatabricksAuth } from './auth/credentials';
import type { TokenSource } from './auth/token-source';
import { RestClient, type RetryOptions } from './rest/http';
import { leaseDriverSession } from './session/pool';
import type { SqlSession } from './session/sql-session';

export interface DatabricksConfig {
  /** Workspace URL. Optional only with a CLI profile, which names its host. */
  host?: string;
  /** SQL warehouse id (the last part of its HTTP path). Optional only when the CLI profile has `warehouse_id`. */
  warehouseId?: string;
  auth: DatabricksAuth;
  /** Per-statement limit on the warehouse (session STATEMENT_TIMEOUT); default 3600 s. */
  statementTimeoutSeconds?: number;
  retry?: RetryOptions;
  /** Replaces the pooled `@databricks/sql` session (tests, or a caller that manages its own). */
  sqlSession?: SqlSession;
  fetch?: typeof fetch;
}

export interface ResolvedConfig {
  host: string;
  warehouseId: string;
  tokens: TokenSource;
  http: RestClient;
  sql: SqlSession;
}

export async function resolveConfig(config: DatabricksConfig): Promise<ResolvedConfig> {
  const fetchImpl = config.fetch ?? fetch;
  const auth = await resolveAuth(config.host, config.auth, fetchImpl);
  const warehouseId = config.warehouseId ?? auth.warehouseId;
  if (!warehouseId || !/^[A-Za-z0-9]+$/.test(warehouseId)) {
    throw new InvalidWarehouseError(`a valid SQL warehouse id is required, got ${JSON.stringify(warehouseId ?? null)}`);
  }
  const http = new RestClient(auth.host, auth.tokens, config.retry, fetchImpl);
  const sql =
    config.sqlSession ??
    leaseDriverSession({
      host: auth.host,
      warehouseId,
      tokens: auth.tokens,
      statementTimeoutSeconds: config.statementTimeoutSeconds,
    });
  return { host: auth.host, warehouseId, tokens: auth.tokens, http, sql };
}
