import type OpenAI from 'openai';

/** Where a model call goes: a serving endpoint's or an external OpenAI-compatible API, or Anthropic's. */
export interface ModelTarget {
  backend: 'serving_endpoint' | 'external';
  protocol: 'openai' | 'anthropic';
  /** OpenAI-compatible base URL (`<host>/serving-endpoints`, `https://api.openai.com/v1`) or Anthropic's API. */
  baseUrl: string;
  apiKey: string;
  /** The serving endpoint's name, or the external model id. */
  model: string;
}

export interface ChatRequest {
  system: string;
  user: string;
  maxTokens: number;
  /** Images sent with the user message (multimodal call): bytes and their MIME type. */
  images?: { data: Buffer; mime: string }[];
  timeoutMs?: number;
  /** Ask for a JSON object answer. */
  json?: boolean;
}

/** A failed model call (HTTP error, timeout, empty answer). The caller falls back to its template. */
export class ModelCallError extends Error {}

/**
 * One chat completion, exactly one HTTP request (no client retries: each attempt is charged by the caller's
 * budget, so a retry is the caller's decision). Returns the answer's text.
 */
export async function chatCompletion(target: ModelTarget, req: ChatRequest): Promise<string> {
  try {
    const text = target.protocol === 'anthropic' ? await anthropic(target, req) : await openAiCompatible(target, req);
    if (!text.trim()) throw new ModelCallError('the model answered with no text');
    return text;
  } catch (err) {
    if (err instanceof ModelCallError) throw err;
    throw new ModelCallError(`model call to ${target.model} failed: ${(err as Error).message}`);
  }
}

async function openAiCompatible(target: ModelTarget, req: ChatRequest): Promise<string> {
  // Loaded at the first call: the client is 5 MB of heap a process without model calls should not hold.
  const { default: OpenAIClient } = await import('openai');
  const client = new OpenAIClient({
    baseURL: target.baseUrl,
    apiKey: target.apiKey,
    maxRetries: 0,
    timeout: req.timeoutMs ?? 60_000,
  });
  const content: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [{ type: 'text', text: req.user }];
  for (const img of req.images ?? []) {
    content.push({ type: 'image_url', image_url: { url: `data:${img.mime};base64,${img.data.toString('base64')}` } });
  }
  const completion = await client.chat.completions.create({
    model: target.model,
    max_tokens: req.maxTokens,
    messages: [
      { role: 'system', content: req.system },
      { role: 'user', content: req.images?.length ? content : req.user },
    ],
    ...(req.json ? { response_format: { type: 'json_object' as const } } : {}),
  });
  return completion.choices[0]?.message?.content ?? '';
}

/** Anthropic's Messages API (one POST; the answer's text blocks joined). */
async function anthropic(target: ModelTarget, req: ChatRequest): Promise<string> {
  const content: unknown[] = (req.images ?? []).map((img) => ({
    type: 'image',
    source: { type: 'base64', media_type: img.mime, data: img.data.toString('base64') },
  }));
  content.push({ type: 'text', text: req.user });
  const res = await fetch(`${target.baseUrl.replace(/\/+$/, '')}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': target.apiKey,
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify({
      model: target.model,
      max_tokens: req.maxTokens,
      system: req.system,
      messages: [{ role: 'user', content }],
    }),
    signal: AbortSignal.timeout(req.timeoutMs ?? 60_000),
  });
  if (!res.ok) throw new ModelCallError(`Anthropic API answered ${res.status}`);
  const body = (await res.json()) as { content?: { type: string; text?: string }[] };
  return (body.content ?? [])
    .filter((b) => b.type === 'text')
    .map((b) => b.text ?? '')
    .join('');
}
