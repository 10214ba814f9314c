import { ApplicationFailure } from '@temporalio/common';
import nodemailer from 'nodemailer';
import type { Config } from '../../config/load';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Action } from '../../schemas/automation';
import type { Store } from '../../store/db';
import { automationCipher } from '../../store/automation/secrets';
import { addNotification } from '../../store/notifications/repo';
import type { AutomationServices } from './services';
import { quarantineTable } from './quarantine';
import { deliverWebhook } from './webhook';

export interface ActionDeps {
  config: Config;
  store: Store;
  workspaces: WorkspaceResolver;
  services?: AutomationServices;
}

export interface ActionRun {
  executionId: string;
  playbookId: string;
  action: Action;
  /** The action's params with `{{event.x}}` rendered (sealed secrets untouched). */
  params: Record<string, unknown>;
  event: Record<string, unknown>;
  webhookId: string;
}

const invalid = (message: string) => ApplicationFailure.create({ nonRetryable: true, type: 'InvalidInput', message });

function str(params: Record<string, unknown>, key: string, action: string): string {
  const v = params[key];
  if (typeof v !== 'string' || !v) throw invalid(`${action}: params.${key} is required`);
  return v;
}

function services(deps: ActionDeps): AutomationServices {
  if (!deps.services) throw invalid('this worker has no job services wired (workers/stack.ts)');
  return deps.services;
}

function tableParts(fqn: string) {
  const parts = fqn.split('.');
  if (parts.length !== 3 || parts.some((p) => !p)) throw invalid(`tag_table: ${fqn} is not catalog.schema.table`);
  return { type: 'TABLE' as const, catalog: parts[0], schema: parts[1], name: parts[2] };
}

async function notify(deps: ActionDeps, run: ActionRun): Promise<Record<string, unknown>> {
  const p = run.params;
  const channel = (p.channel as string | undefined) ?? 'in_app';
  const message = (p.message as string | undefined) ?? String(run.event.message ?? 'playbook notification');
  if (channel === 'in_app') {
    const row = await addNotification(deps.store.db, {
      type: 'playbook',
      message,
      status: String(run.event.type ?? 'manual'),
      jobId: (run.event.job_id as string | null) ?? null,
    });
    return { channel, notification_id: row.id };
  }
  if (channel === 'slack') {
    const url = str(p, 'webhook_url', 'notify slack');
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(deps.config.automation.webhooks.timeout_seconds * 1000),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: message }),
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 500 || res.status === 429) throw new Error(`slack answered HTTP ${res.status}`);
    if (!res.ok) throw invalid(`slack answered HTTP ${res.status}`);
    return { channel, status_code: res.status };
  }
  if (channel === 'email') {
    const smtp = deps.config.automation.smtp;
    if (!smtp.host) throw invalid('notify email: automation.smtp.host is not configured');
    const to = str(p, 'to', 'notify email');
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
    });
    const info = await transport.sendMail({
      from: smtp.from,
      to,
      subject: (p.subject as string | undefined) ?? `Lakeward: ${String(run.event.type ?? 'playbook')}`,
      text: message,
    });
    return { channel, to, message_id: info.messageId };
  }
  throw invalid(`notify: unknown channel ${channel} (in_app, slack or email)`);
}

function openSecret(deps: ActionDeps, sealed: Record<string, string>): string {
  try {
    return automationCipher(deps.config).open(sealed);
  } catch {
    throw invalid('webhook: the stored secret cannot be decrypted with this key (automation.secrets_key changed?)');
  }
}

/** Performs one action for real and returns its output; throws (retryable or not) when it fails. */
export async function performAction(deps: ActionDeps, run: ActionRun): Promise<Record<string, unknown>> {
  const p = run.params;
  switch (run.action.type) {
    case 'start_clone':
    case 'start_sync':
    case 'run_dq':
    case 'run_pipeline':
      return services(deps).startJob(run.action.type, p);
    case 'pause_schedule':
      return services(deps).pauseSchedule(
        str(p, 'schedule_id', 'pause_schedule'),
        `paused by playbook ${run.playbookId}`,
      );
    case 'resume_schedule':
      return services(deps).resumeSchedule(
        str(p, 'schedule_id', 'resume_schedule'),
        `resumed by playbook ${run.playbookId}`,
      );
    case 'quarantine':
      return quarantineTable({ store: deps.store, ws: await deps.workspaces.default() }, p, run);
    case 'tag_table': {
      const fqn = str(p, 'table_fqn', 'tag_table');
      const tags = p.tags as Record<string, unknown> | undefined;
      if (!tags || typeof tags !== 'object' || !Object.keys(tags).length)
        throw invalid('tag_table: params.tags is required');
      const values = Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, String(v)]));
      const ws = await deps.workspaces.default();
      await ws.setTags(tableParts(fqn), values);
      return { table_fqn: fqn, tags: values };
    }
    case 'notify':
      return notify(deps, run);
    case 'webhook': {
      const sealed = p.secret_sealed as Record<string, string> | undefined;
      if (!sealed) throw invalid('webhook: no secret is stored');
      const { timeout_seconds: timeout, deny_private_networks: deny } = deps.config.automation.webhooks;
      return deliverWebhook({
        url: str(p, 'url', 'webhook'),
        secret: openSecret(deps, sealed),
        headers: (p.headers as Record<string, string> | undefined) ?? {},
        webhookId: run.webhookId,
        type: String(run.event.type ?? 'manual'),
        data: run.event,
        timeoutMs: timeout * 1000,
        denyPrivateNetworks: deny,
      });
    }
    case 'open_case':
      return services(deps).openCase(p);
  }
}
