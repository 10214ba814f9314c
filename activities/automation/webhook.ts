import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { Webhook } from 'standardwebhooks';
import { retryableStatus } from './logic/render';

export interface WebhookDelivery {
  url: string;
  secret: string;
  headers: Record<string, string>;
  /** Fixed before the first attempt, so a receiver can de-duplicate retries. */
  webhookId: string;
  type: string;
  data: Record<string, unknown>;
  timeoutMs: number;
  denyPrivateNetworks: boolean;
}

function privateAddress(ip: string): boolean {
  if (isIP(ip) === 6) {
    const v = ip.toLowerCase();
    if (v.startsWith('::ffff:')) return privateAddress(v.slice(7));
    return v === '::1' || v === '::' || v.startsWith('fc') || v.startsWith('fd') || v.startsWith('fe80');
  }
  const [a, b] = ip.split('.').map(Number);
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

const refuse = (type: string, message: string) => ApplicationFailure.create({ nonRetryable: true, type, message });

/**
 * One Standard Webhooks delivery attempt (webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC>`
 * over `id.timestamp.body`). No redirects are followed. 2xx → the status; 408, 429, 5xx and network errors throw a
 * retryable error (the activity's retry policy makes the next attempt with the same webhook-id); any other status
 * is final. The secret appears in no message.
 */
export async function deliverWebhook(d: WebhookDelivery): Promise<{ status_code: number; webhook_id: string }> {
  let url: URL;
  try {
    url = new URL(d.url);
  } catch {
    throw refuse('InvalidInput', `webhook url is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse('InvalidInput', 'webhook url must be http(s)');
  if (d.denyPrivateNetworks) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    if (addresses.some(privateAddress))
      throw refuse('PermissionDenied', `webhook host ${host} is on a private network (deny_private_networks)`);
  }
  const timestamp = new Date();
  const body = JSON.stringify({ type: d.type, timestamp: timestamp.toISOString(), data: d.data });
  const signature = new Webhook(d.secret).sign(d.webhookId, timestamp, body);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(d.timeoutMs),
      headers: {
        ...d.headers,
        'content-type': 'application/json',
        'webhook-id': d.webhookId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
    });
  } catch (err) {
    throw new Error(
      `webhook ${url.host}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`,
    );
  }
  await res.body?.cancel().catch(() => undefined);
  if (res.status >= 200 && res.status < 300) return { status_code: res.status, webhook_id: d.webhookId };
  const message = `webhook ${url.host} answered HTTP ${res.status}`;
  if (retryableStatus(res.status))
    throw ApplicationFailure.create({ type: 'WebhookRetryable', message, details: [res.status] });
  throw ApplicationFailure.create({ nonRetryable: true, type: 'WebhookRefused', message, details: [res.status] });
}
