import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError, TransientError } from '../../errors';
import type { TokenSource } from '../auth/token-source';
import { classifyHttpError, classifySqlError, type ApiErrorBody } from '../classify';

/** Retry knobs for REST calls; defaults suit a foreground API call (a few seconds at most). */
export interface RetryOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited out here; the TransientError carries it to the caller. */
  maxRetryAfterSeconds?: number;
  timeoutMs?: number;
}

export interface RestRequest {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Send/receive raw bytes (Files API) instead of JSON. */
  raw?: boolean;
}

/** Plain `fetch` with retries: 429 (honouring Retry-After), 5xx and network errors; nothing else. */
export class RestClient {
  private readonly retry: Required<RetryOptions>;
  constructor(
    readonly host: string,
    private readonly tokens: TokenSource,
    retry: RetryOptions = {},
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.retry = {
      maxAttempts: 4,
      baseDelayMs: 250,
      maxDelayMs: 8000,
      maxRetryAfterSeconds: 30,
      timeoutMs: 60_000,
      ...retry,
    };
  }

  async request<T>(method: string, path: string, req: RestRequest = {}): Promise<T> {
    const what = `${method} ${path}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once<T>(method, path, req, what);
      } catch (err) {
        const failure = err instanceof PlatformError ? err : classifySqlError(err, this.tokens.secrets(), what);
        if (!failure.retryable || attempt >= this.retry.maxAttempts) throw failure;
        const waitSeconds = failure.retryAfterSeconds;
        if (waitSeconds !== undefined && waitSeconds > this.retry.maxRetryAfterSeconds) throw failure;
        const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
        await sleep(waitSeconds !== undefined ? waitSeconds * 1000 : backoff / 2 + Math.random() * (backoff / 2));
      }
    }
  }

  private async once<T>(method: string, path: string, req: RestRequest, what: string): Promise<T> {
    const url = new URL(path, this.host);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Authorization: `Bearer ${await this.tokens.token()}` };
    let body: Uint8Array | string | undefined;
    if (req.body !== undefined) {
      body = req.raw ? new Uint8Array(req.body as Buffer) : JSON.stringify(req.body);
      headers['Content-Type'] = req.raw ? 'application/octet-stream' : 'application/json';
    }
    const res = await this.fetchImpl(url, { method, headers, body, signal: AbortSignal.timeout(this.retry.timeoutMs) });
    if (res.ok) {
      if (req.raw) return Buffer.from(await res.arrayBuffer()) as T;
      const text = await res.text();
      return (text ? JSON.parse(text) : {}) as T;
    }
    const errorBody = await res.text().then(parseErrorBody, () => ({}));
    throw classifyHttpError(
      res.status,
      errorBody,
      what,
      this.tokens.secrets(),
      retryAfter(res.headers.get('retry-after')),
    );
  }

  /** Follows `next_page_token` until exhausted, collecting `itemsKey` from each page. */
  async listAll<T>(path: string, itemsKey: string, query: RestRequest['query'] = {}): Promise<T[]> {
    const items: T[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < 10_000; page++) {
      const res = await this.request<Record<string, unknown>>('GET', path, {
        query: { ...query, page_token: pageToken },
      });
      items.push(...((res[itemsKey] as T[] | undefined) ?? []));
      pageToken =
        typeof res.next_page_token === 'string' && res.next_page_token !== '' ? res.next_page_token : undefined;
      if (!pageToken) return items;
    }
    throw new TransientError(`${path}: pagination did not end`);
  }
}

function parseErrorBody(text: string): ApiErrorBody {
  try {
    const parsed = JSON.parse(text) as ApiErrorBody;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return { message: text.slice(0, 500) };
  }
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
