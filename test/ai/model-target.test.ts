import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { modelTarget } from '../../api/ai/model';
import type { AppDeps } from '../../api/deps';
import { loadConfig } from '../../config/load';
import { chatCompletion, ModelCallError } from '../../platform/ai/chat';

/** Where a model call goes: the header's serving endpoint, else ai.external, else nowhere (template only). */
const reqWith = (headers: Record<string, string>) =>
  ({ headers, get: (name: string) => headers[name.toLowerCase()] }) as unknown as Request;
const depsWith = (over: (c: AppDeps['config']) => void) => {
  const config = loadConfig({ env: {}, flags: {} });
  over(config);
  return { config } as AppDeps;
};

test('X-Databricks-Model on a Databricks workspace calls <host>/serving-endpoints with the request token', () => {
  const target = modelTarget(
    depsWith(() => undefined),
    reqWith({
      'x-databricks-model': 'llama-70b',
      'x-databricks-host': 'dbc-1.cloud.databricks.com',
      'x-databricks-token': 'dapi1',
    }),
  );
  expect(target).toEqual({
    backend: 'serving_endpoint',
    protocol: 'openai',
    baseUrl: 'https://dbc-1.cloud.databricks.com/serving-endpoints',
    apiKey: 'dapi1',
    model: 'llama-70b',
  });
  const platform = modelTarget(
    depsWith((c) => {
      c.workspace.kind = 'databricks';
      c.workspace.host = 'https://dbc-2.cloud.databricks.com';
      c.workspace.token = 'dapi2';
    }),
    reqWith({ 'x-platform-model': 'claude' }),
  );
  expect(platform).toMatchObject({ baseUrl: 'https://dbc-2.cloud.databricks.com/serving-endpoints', model: 'claude' });
});

test('without the header: ai.external when configured (key from its environment variable), else template only', () => {
  expect(
    modelTarget(
      depsWith(() => undefined),
      reqWith({}),
    ),
  ).toBeNull();
  process.env.LW_TEST_ANTHROPIC_KEY = 'sk-ant';
  const target = modelTarget(
    depsWith((c) => {
      c.ai.external = {
        provider: 'anthropic',
        base_url: null,
        api_key: null,
        api_key_env: 'LW_TEST_ANTHROPIC_KEY',
        model: 'claude-x',
      };
    }),
    reqWith({}),
  );
  expect(target).toEqual({
    backend: 'external',
    protocol: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKey: 'sk-ant',
    model: 'claude-x',
  });
});

test("Anthropic's Messages API: one POST with max_tokens and the key; an error status is a failed call", async () => {
  const seen: { url?: string; key?: string; body: Record<string, unknown> }[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url, key: req.headers['x-api-key'] as string, body: JSON.parse(body) });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ content: [{ type: 'text', text: 'Reads one table.' }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const target = {
      backend: 'external' as const,
      protocol: 'anthropic' as const,
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'sk-ant',
      model: 'claude-x',
    };
    const text = await chatCompletion(target, { system: 'sys', user: 'facts', maxTokens: 256 });
    expect(text).toBe('Reads one table.');
    expect(seen[0]).toMatchObject({
      url: '/v1/messages',
      key: 'sk-ant',
      body: { model: 'claude-x', max_tokens: 256, system: 'sys' },
    });
    status = 529;
    await expect(chatCompletion(target, { system: 's', user: 'u', maxTokens: 1 })).rejects.toBeInstanceOf(
      ModelCallError,
    );
    expect(seen).toHaveLength(2);
  } finally {
    await new Promise((r) => server.close(r));
    delete process.env.LW_TEST_ANTHROPIC_KEY;
  }
});
