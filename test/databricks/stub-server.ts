import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the stub saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface StubReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: Buffer | string;
}

export type StubHandler = (req: SeenRequest, attempt: number) => StubReply;

/**
 * A real HTTP server on 127.0.0.1 standing in for a Databricks workspace's REST API. Routes are
 * `METHOD /path` keys; `attempt` counts calls to the same route so tests can fail first and succeed later.
 */
export class StubServer {
  readonly seen: SeenRequest[] = [];
  private readonly routes = new Map<string, StubHandler>();
  private readonly attempts = new Map<string, number>();
  private server?: Server;
  url = '';

  on(route: string, handler: StubHandler | StubReply): this {
    this.routes.set(route, typeof handler === 'function' ? handler : () => handler);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  paths(): string[] {
    return this.seen.map((r) => `${r.method} ${r.path}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    this.seen.push(seen);
    const key = `${seen.method} ${seen.path}`;
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const handler = this.routes.get(key);
    const reply: StubReply = handler
      ? handler(seen, attempt)
      : { status: 404, json: { error_code: 'RESOURCE_DOES_NOT_EXIST', message: `no stub for ${key}` } };
    const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
    res.writeHead(reply.status ?? 200, {
      'content-type': reply.json !== undefined ? 'application/json' : 'application/octet-stream',
      ...reply.headers,
    });
    res.end(body);
  }
}
