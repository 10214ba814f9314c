import { InvalidInputError } from '../../errors';
import { normalizeHost, type DatabricksAuth } from './credentials';
import { Secret } from './secret';

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = headers[name.toLowerCase()];
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * Per-request credentials from `X-Databricks-Host` / `X-Databricks-Token` (the `X-Platform-` spelling is
 * accepted too). Returns null when neither is present; one without the other is a client error.
 * Expects Node's lower-cased header map (Express `req.headers`).
 */
export function credentialsFromHeaders(headers: Headers): { host: string; auth: DatabricksAuth } | null {
  const host = header(headers, 'x-databricks-host', 'x-platform-host');
  const token = header(headers, 'x-databricks-token', 'x-platform-token');
  if (host === undefined && token === undefined) return null;
  if (host === undefined) throw new InvalidInputError('X-Databricks-Token given without X-Databricks-Host');
  if (token === undefined) throw new InvalidInputError('X-Databricks-Host given without X-Databricks-Token');
  return { host: normalizeHost(host), auth: { type: 'pat', token: new Secret(token) } };
}
