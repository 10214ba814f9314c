import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PermissionDeniedError, TransientError, InvalidInputError } from '../../errors';
import { redact } from './secret';

const run = promisify(execFile);

/** What `az account get-access-token` prints (the fields read). */
export interface AzureCliToken {
  accessToken: string;
  tenant?: string;
  subscription?: string;
}

/**
 * A token from the Azure CLI the server runs as: `az account get-access-token --resource <r> [--tenant <t>]
 * --output json`, as the Azure SDKs' AzureCliCredential does. The executable is `AZURE_CLI_PATH` or `az`.
 */
export async function azureCliToken(resource: string, tenant?: string): Promise<AzureCliToken> {
  const az = process.env.AZURE_CLI_PATH || 'az';
  const args = ['account', 'get-access-token', '--resource', resource, ...(tenant ? ['--tenant', tenant] : [])];
  let stdout: string;
  try {
    ({ stdout } = await run(az, [...args, '--output', 'json'], { timeout: 60_000, maxBuffer: 1 << 20 }));
  } catch (err) {
    const e = err as { code?: string; stderr?: string; message?: string };
    const why = e.code === 'ENOENT' ? `${az} is not installed` : redact(e.stderr || e.message || '');
    throw new PermissionDeniedError(`az account get-access-token failed (run az login on the server): ${why.trim()}`);
  }
  let body: Partial<AzureCliToken>;
  try {
    body = JSON.parse(stdout) as Partial<AzureCliToken>;
  } catch {
    throw new PermissionDeniedError('az account get-access-token did not print JSON');
  }
  if (!body.accessToken) throw new PermissionDeniedError('az account get-access-token printed no accessToken');
  return { accessToken: body.accessToken, tenant: body.tenant, subscription: body.subscription };
}

/**
 * Azure Resource Manager reads with a bearer token: every page of a list (`value`, then `nextLink`, followed only on
 * the same origin as `base`).
 */
export async function armList<T>(
  base: string,
  path: string,
  apiVersion: string,
  token: string,
  fetchImpl: typeof fetch = fetch,
): Promise<T[]> {
  const origin = new URL(base).origin;
  let url: string | undefined = `${base.replace(/\/+$/, '')}${path}?api-version=${encodeURIComponent(apiVersion)}`;
  const out: T[] = [];
  for (let page = 0; url && page < 1000; page++) {
    const res = await fetchImpl(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    const text = await res.text();
    if (!res.ok) {
      const message = redact(text.slice(0, 500), [token]);
      if (res.status === 401 || res.status === 403)
        throw new PermissionDeniedError(`Azure Resource Manager refused ${path}: ${message}`);
      if (res.status === 404 || res.status === 400) throw new InvalidInputError(`Azure Resource Manager: ${message}`);
      throw new TransientError(`Azure Resource Manager ${res.status} for ${path}: ${message}`);
    }
    const body = JSON.parse(text) as { value?: T[]; nextLink?: string };
    out.push(...(body.value ?? []));
    url = body.nextLink && new URL(body.nextLink).origin === origin ? body.nextLink : undefined;
  }
  return out;
}
