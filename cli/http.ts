import type { Command } from 'commander';

/** Options every API-talking command accepts. */
export interface ApiOptions {
  url?: string;
  apiKey?: string;
  json?: boolean;
}

/** Adds --url, --api-key and --json to a command (environment: LAKEWARD_URL, LAKEWARD_API_KEY). */
export function withApiOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'Lakeward API base URL (env LAKEWARD_URL, default http://localhost:8080)')
    .option('--api-key <key>', 'API key sent as a Bearer token (env LAKEWARD_API_KEY)')
    .option('--json', 'print the JSON response instead of text');
}

/** An error answer from the API, with its common error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The API could not be reached at all. */
export class ApiUnreachableError extends Error {}

export interface ApiClient {
  baseUrl: string;
  /** `body` is sent as JSON, or as multipart/form-data when it is a FormData; `headers` are added. */
  request<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
}

export function apiClient(opts: ApiOptions, env: NodeJS.ProcessEnv = process.env): ApiClient {
  const baseUrl = (opts.url ?? env.LAKEWARD_URL ?? `http://localhost:${env.LAKEWARD_PORT || 8080}`).replace(/\/+$/, '');
  const apiKey = opts.apiKey ?? env.LAKEWARD_API_KEY;
  const request = async <T>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<T> => {
    const headers: Record<string, string> = { Accept: 'application/json', ...extra };
    if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new ApiUnreachableError(
        `cannot reach the Lakeward API at ${baseUrl} (${cause}); is \`lakeward dev\` running?`,
      );
    }
    const text = await res.text();
    const data = text ? safeJson(text) : undefined;
    if (!res.ok) {
      const e = (data as { error?: { code?: string; message?: string; details?: ApiError['details'] } })?.error;
      throw new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? text ?? res.statusText, e?.details);
    }
    return data as T;
  };
  return {
    baseUrl,
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Prints `data` as JSON with --json, else the human text. */
export function print<T>(opts: { json?: boolean }, data: T, human: (data: T) => string): void {
  console.log(opts.json ? JSON.stringify(data, null, 2) : human(data));
}
