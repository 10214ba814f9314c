import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { fromBuffer } from 'file-type';
import { z } from 'zod';
import { budgetedCall } from '../../activities/ai/logic/budgeted';
import {
  CAPTURE_COLUMNS,
  descriptionStyle,
  LISTED_COLUMNS,
  missingColumns,
} from '../../activities/capture/logic/columns';
import { capturePrompt, clipFields, templateFields, type CaptureFields } from '../../activities/capture/logic/describe';
import { chatCompletion } from '../../platform/ai/chat';
import { isPlatformError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';
import type { CaptureFrameFields } from '../../schemas/capture';
import type { Caller } from '../../schemas/governance';
import { createUsage, getUsage, recordCall, reserveTokens } from '../../store/ai/usage';
import { spendOf } from '../ai/summarize';
import { modelTarget } from '../ai/model';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';

export const MAX_FRAME_BYTES = 25 * 1024 * 1024;
export const FRAME_ROUTE = 'POST /api/capture/frame';

interface Target {
  catalog: string;
  schema: string;
  volume: string;
  table_name: string;
}

const volumeRef = (t: Target): TableRef => ({ catalog: t.catalog, schema: t.schema, name: t.volume });
const tableRef = (t: Target): TableRef => ({ catalog: t.catalog, schema: t.schema, name: t.table_name });

/**
 * POST /api/capture/init: the volume and the capture table, created when missing; an older table gains the
 * capture columns DESCRIBE does not show, in one ADD COLUMNS. A repeat writes nothing.
 */
export async function initCapture(ws: Workspace, t: Target) {
  await ws.getSchema(t.catalog, t.schema);
  const volumes = await ws.listVolumes(t.catalog, t.schema);
  const createdVolume = !volumes.some((v) => v.name.toLowerCase() === t.volume.toLowerCase());
  if (createdVolume) await ws.createVolume({ ref: volumeRef(t), ifNotExists: true, comment: 'Live capture files' });
  const ref = tableRef(t);
  let createdTable = false;
  let added: string[] = [];
  if (!(await ws.tableExists(ref))) {
    await ws.createTable({ ref, columns: CAPTURE_COLUMNS.map((c) => ({ ...c, nullable: true })) });
    createdTable = true;
  } else {
    const missing = missingColumns((await ws.describeTable(ref)).columns.map((c) => c.name));
    if (missing.length) await ws.addColumns(ref, missing);
    added = missing.map((c) => c.name);
  }
  const fqn = (n: string) => `${t.catalog}.${t.schema}.${n}`;
  return {
    volume: fqn(t.volume),
    table: fqn(t.table_name),
    created_volume: createdVolume,
    created_table: createdTable,
    added_columns: added,
  };
}

const ModelFieldsSchema = z.object({
  caption: z.string(),
  alt_text: z.string(),
  summary: z.string(),
  tags: z.union([z.string(), z.array(z.string())]),
  detected_text: z.string().default(''),
  scene_category: z.string(),
});

function parseModelJson(text: string): z.infer<typeof ModelFieldsSchema> {
  const body = text.replace(/^\s*```(?:json)?\s*/i, '').replace(/\s*```\s*$/, '');
  return ModelFieldsSchema.parse(JSON.parse(body));
}

function badFile(status: number, code: string, message: string): HttpError {
  return new HttpError(status, code, message, [{ path: 'body.file', message }]);
}

/**
 * POST /api/capture/frame: the kind read from the bytes, the file written to the volume, then the row inserted
 * with the bytes as a bound parameter before the answer; a failed insert removes the file again.
 */
export async function captureFrame(
  deps: AppDeps,
  req: Request,
  caller: Caller,
  f: CaptureFrameFields,
  file: { buffer: Buffer } | undefined,
) {
  const buf = file?.buffer;
  if (!buf || buf.length === 0) throw badFile(400, 'VALIDATION_ERROR', 'file is required and must not be empty');
  if (buf.length > MAX_FRAME_BYTES) throw badFile(413, 'PAYLOAD_TOO_LARGE', 'file is larger than 25 MB');
  const kind = await fromBuffer(buf);
  const want = f.capture_type === 'photo' ? 'image/' : 'video/';
  if (!kind || !kind.mime.startsWith(want)) {
    throw badFile(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `capture_type ${f.capture_type} needs ${want}* bytes; the file is ${kind?.mime ?? 'of an unknown kind'}`,
    );
  }
  let width: number | null = null;
  let height: number | null = null;
  if (f.capture_type === 'photo') {
    const { imageSize } = await import('image-size');
    try {
      const d = imageSize(new Uint8Array(buf));
      width = d.width ?? null;
      height = d.height ?? null;
    } catch {
      // A format image-size does not read keeps its dimensions unknown.
    }
  }
  const style = descriptionStyle(f.description_style);
  const captureId = randomUUID();
  const sessionId = f.session_id ?? null;
  const facts = { captureType: f.capture_type, extension: kind.ext, sizeBytes: buf.length, width, height, sessionId };
  const template = templateFields(facts);

  const db = deps.store.db;
  const usageId = randomUUID();
  await createUsage(db, { id: usageId, route: FRAME_ROUTE, budget: f.ai_token_budget });
  const target = f.capture_type === 'photo' ? modelTarget(deps, req) : null;
  const described = await budgetedCall<CaptureFields>(
    {
      hasModel: target !== null,
      reserve: (n) => reserveTokens(db, usageId, n),
      call: async () => {
        const text = await chatCompletion(target!, {
          system: capturePrompt(style),
          user: 'Describe the attached photo.',
          maxTokens: f.max_tokens,
          images: [{ data: buf, mime: kind.mime }],
          json: true,
        });
        return clipFields(parseModelJson(text), template);
      },
      record: (ok) => recordCall(db, usageId, { backend: target!.backend, model: target!.model, ok }),
      template: () => template,
    },
    f.max_tokens,
  );

  const ws = await deps.workspaces.resolve(req);
  const rel = `capture/${f.capture_type}/${captureId}.${kind.ext}`;
  const filePath = `/Volumes/${f.catalog}/${f.schema}/${f.volume}/${rel}`;
  const submittedBy = caller.name === 'anonymous' || caller.name === 'unauthenticated' ? null : caller.name;
  await ws.writeVolumeFile(volumeRef(f), rel, buf);
  const fields = described.value;
  const row: Record<string, string | number | Date | Buffer | null> = {
    capture_id: captureId,
    capture_type: f.capture_type,
    file_path: filePath,
    file_extension: kind.ext,
    size_bytes: buf.length,
    width,
    height,
    duration_ms: null,
    mime_type: kind.mime,
    industry: f.industry ?? null,
    ...fields,
    content_full: null,
    captured_at: new Date(),
    session_id: sessionId,
    submitted_by: submittedBy,
    content: buf,
    metadata_json: JSON.stringify({ source: described.fromModel ? target!.backend : 'template', usage_id: usageId }),
    description_style: style,
  };
  try {
    await ws.insertBoundRow(
      tableRef(f),
      CAPTURE_COLUMNS.map((c) => ({ name: c.name, type: c.type, value: row[c.name] ?? null })),
    );
  } catch (err) {
    await ws.deleteVolumePath(volumeRef(f), rel).catch(() => undefined);
    throw err;
  }
  const usage = (await getUsage(db, usageId))!;
  return {
    capture_id: captureId,
    capture_type: f.capture_type,
    file_path: filePath,
    mime_type: kind.mime,
    file_extension: kind.ext,
    size_bytes: buf.length,
    width,
    height,
    session_id: sessionId,
    submitted_by: submittedBy,
    description_style: style,
    ...fields,
    source: described.fromModel ? target!.backend : ('template' as const),
    ...(described.fromModel ? {} : { reason: described.reason }),
    ai: spendOf(usage),
    usage_id: usageId,
  };
}

/** GET /api/capture/recent: newest first, optionally one session's; `content` is never selected. */
export async function recentCaptures(ws: Workspace, q: Target & { session_id?: string; limit: number }) {
  const ref = tableRef(q);
  if (!(await ws.tableExists(ref))) return { captures: [] };
  const have = new Set((await ws.describeTable(ref)).columns.map((c) => c.name.toLowerCase()));
  const cols = LISTED_COLUMNS.filter((c) => have.has(c));
  const bq = (s: string) => `\`${s.replace(/`/g, '``')}\``;
  const from = [q.catalog, q.schema, q.table_name].map(bq).join('.');
  const where = q.session_id ? ' WHERE `session_id` = :session_id' : '';
  const sql = `SELECT ${cols.map(bq).join(', ')} FROM ${from}${where} ORDER BY \`captured_at\` DESC NULLS LAST`;
  try {
    const r = await ws.executeStatement(sql, {
      parameters: q.session_id ? [{ name: 'session_id', value: q.session_id, type: 'STRING' }] : [],
      rowLimit: q.limit,
      timeoutMs: 60_000,
    });
    const names = r.columns.map((c) => c.name);
    return {
      captures: r.rows.map((row) =>
        Object.fromEntries(row.map((v, i) => [names[i], v instanceof Date ? v.toISOString() : v])),
      ),
    };
  } catch (err) {
    if (isPlatformError(err) && err.code === 'NOT_FOUND') return { captures: [] };
    throw err;
  }
}
