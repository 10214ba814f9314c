import { InvalidInputError } from '../../errors';
import { normalizeHost, type DatabricksAuth } from './credentials';
import { Secret } from './secret';

type Headers = Record<string, string | string[] | undefined>;

/** The two per-request workspace headers, each with the alias the spec also names. */
export const WORKSPACE_HEADERS = {
  host: ['x-databricks-host', 'x-platform-host'],
  token: ['x-databricks-token', 'x-platform-token'],
} as const;

/** A bad workspace header: names the header (lower case) and the problem, for a 400 that points at it. */
export class WorkspaceHeaderError extends InvalidInputError {
  constructor(
    message: string,
    readonly header: string,
    readonly problem: string,
  ) {
    super(message);
  }
}

function header(headers: Headers, names: readonly string[]): string | undefined {
  for (const name of names) {
    const v = headers[name.toLowerCase()];
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * The one reader of the per-request workspace headers `X-Databricks-Host` / `X-Databricks-Token` (the
 * `X-Platform-` spelling is accepted too), used by the platform and by the API. Expects Node's lower-cased
 * header map (`req.headers`). Returns null when neither is present; one without the other, or a host that
 * is not an https URL, throws WorkspaceHeaderError. The token comes back as a Secret (never printed).
 */
export function readWorkspaceHeaders(headers: Headers): { host: string; token: Secret } | null {
  const host = header(headers, WORKSPACE_HEADERS.host);
  const token = header(headers, WORKSPACE_HEADERS.token);
  if (host === undefined && token === undefined) return null;
  const required = 'required when the other workspace header is sent';
  if (host === undefined) {
    throw new WorkspaceHeaderError(
      'Workspace credentials need both headers: X-Databricks-Host is missing',
      'x-databricks-host',
      required,
    );
  }
  if (token === undefined) {
    throw new WorkspaceHeaderError(
      'Workspace credentials need both headers: X-Databricks-Token is missing',
      'x-databricks-token',
      required,
    );
  }
  let normalized: string;
  try {
    normalized = normalizeHost(host);
  } catch (err) {
    const message = `X-Databricks-Host: ${(err as Error).message}`;
    throw new WorkspaceHeaderError(message, 'x-databricks-host', 'expected https://<workspace-host>');
  }
  return { host: normalized, token: new Secret(token) };
}

/** `readWorkspaceHeaders` as the platform's credentials: a personal access token for that host. */
export function credentialsFromHeaders(headers: Headers): { host: string; auth: DatabricksAuth } | null {
  const creds = readWorkspaceHeaders(headers);
  return creds && { host: creds.host, auth: { type: 'pat', token: creds.token } };
}
