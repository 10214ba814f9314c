import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { mdmCases, mdmLinkDecisions, mdmOverrides, type CaseAttribute, type RecordRef } from './steward-tables';

export type { CaseAttribute, RecordRef };
export type MdmCaseRow = typeof mdmCases.$inferSelect;

/** What a match run (or a steward) opens; `type` is one of the stewardship case types. */
export interface OpenCaseInput {
  entity_type: string;
  type: string;
  records: RecordRef[];
  score?: number | null;
  /** Per attribute: both values and the weight the comparison gave them. */
  attributes?: CaseAttribute[];
  /** Golden records the records belong to (when known). */
  entity_ids?: string[];
  run_id?: string | null;
  details?: Record<string, unknown>;
  assigned_to?: string | null;
}

/** `system:record_id` — the form records take in keys and decisions. */
export const recordKey = (r: RecordRef) => `${r.system}:${r.record_id}`;

const sortedRecords = (records: RecordRef[]) =>
  [...new Map(records.map((r) => [recordKey(r), r])).values()].sort((a, b) =>
    recordKey(a) < recordKey(b) ? -1 : recordKey(a) > recordKey(b) ? 1 : 0,
  );

/** The identity of a case: its type and its sorted record keys. */
export const caseKeyOf = (type: string, records: RecordRef[]) =>
  `${type}|${sortedRecords(records).map(recordKey).join(',')}`;

/**
 * Opens cases, idempotent by (type, sorted record keys): a case that exists already (open or resolved) is left as
 * it is. `dueAt` gives the SLA due date (`slaDueAt(config.mdm.sla_calendar)` from activities/mdm/logic/sla.ts).
 * Answers the ids of the cases opened now.
 */
export async function openCases<T extends string>(
  db: Db,
  cases: (OpenCaseInput & { type: T })[],
  dueAt: (type: T, openedAt: Date) => Date,
  now: Date = new Date(),
): Promise<{ opened: string[]; existing: number }> {
  if (cases.length === 0) return { opened: [], existing: 0 };
  const rows = cases.map((c) => {
    const records = sortedRecords(c.records);
    return {
      id: `CASE-${randomBytes(8).toString('hex')}`,
      caseKey: caseKeyOf(c.type, records),
      entityType: c.entity_type,
      type: c.type,
      status: 'open',
      records,
      entityIds: [...new Set(c.entity_ids ?? [])].sort(),
      score: c.score ?? null,
      attributes: c.attributes ?? [],
      details: c.details ?? null,
      runId: c.run_id ?? null,
      assignedTo: c.assigned_to ?? null,
      openedAt: now,
      dueAt: dueAt(c.type, now),
    };
  });
  const unique = [...new Map(rows.map((r) => [r.caseKey, r])).values()];
  const opened: string[] = [];
  for (let i = 0; i < unique.length; i += 500) {
    const inserted = await db
      .insert(mdmCases)
      .values(unique.slice(i, i + 500))
      .onConflictDoNothing({ target: mdmCases.caseKey })
      .returning({ id: mdmCases.id });
    opened.push(...inserted.map((r) => r.id));
  }
  return { opened, existing: cases.length - opened.length };
}

export async function getCase(db: Db, id: string): Promise<MdmCaseRow | undefined> {
  const [row] = await db.select().from(mdmCases).where(eq(mdmCases.id, id));
  return row;
}

export async function getCaseByKey(db: Db, type: string, records: RecordRef[]): Promise<MdmCaseRow | undefined> {
  const [row] = await db
    .select()
    .from(mdmCases)
    .where(eq(mdmCases.caseKey, caseKeyOf(type, records)));
  return row;
}

export interface CaseFilter {
  entityType?: string;
  type?: string;
  status?: string;
  assignedTo?: string;
  dueBefore?: Date;
}

export async function listCases(db: Db, f: CaseFilter, limit = 1000): Promise<MdmCaseRow[]> {
  const where: SQL[] = [];
  if (f.entityType) where.push(eq(mdmCases.entityType, f.entityType));
  if (f.type) where.push(eq(mdmCases.type, f.type));
  if (f.status) where.push(eq(mdmCases.status, f.status));
  if (f.assignedTo) where.push(eq(mdmCases.assignedTo, f.assignedTo));
  if (f.dueBefore) where.push(lte(mdmCases.dueAt, f.dueBefore));
  return db
    .select()
    .from(mdmCases)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(mdmCases.dueAt), asc(mdmCases.id))
    .limit(limit);
}

export async function updateCase(db: Db, id: string, patch: Partial<typeof mdmCases.$inferInsert>) {
  const [row] = await db.update(mdmCases).set(patch).where(eq(mdmCases.id, id)).returning();
  return row;
}

/** Marks an open case resolved unless someone resolved it first; answers the row, or undefined when not open. */
export async function resolveCase(
  db: Db,
  id: string,
  by: string,
  resolution: Record<string, unknown>,
  at: Date = new Date(),
): Promise<MdmCaseRow | undefined> {
  const [row] = await db
    .update(mdmCases)
    .set({ status: 'resolved', resolvedAt: at, resolvedBy: by, resolution })
    .where(and(eq(mdmCases.id, id), eq(mdmCases.status, 'open')))
    .returning();
  return row;
}

export async function deleteCase(db: Db, id: string): Promise<boolean> {
  return (await db.delete(mdmCases).where(eq(mdmCases.id, id)).returning()).length > 0;
}

export async function markOverdueNotified(db: Db, ids: string[], at: Date) {
  if (ids.length) await db.update(mdmCases).set({ overdueNotifiedAt: at }).where(inArray(mdmCases.id, ids));
}

/** A remembered steward decision between two source records. */
export interface LinkDecision {
  a: RecordRef;
  b: RecordRef;
  case_id: string | null;
}

/** Remembers `must_link` / `cannot_link` for every pair of `records` (idempotent). */
export async function recordLinkDecisions(
  db: Db,
  entityType: string,
  kind: 'must_link' | 'cannot_link',
  records: RecordRef[],
  by: string,
  caseId: string | null,
): Promise<void> {
  const sorted = sortedRecords(records);
  const rows = [];
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++)
      rows.push({
        entityType,
        kind,
        aSystem: sorted[i].system,
        aRecordId: sorted[i].record_id,
        bSystem: sorted[j].system,
        bRecordId: sorted[j].record_id,
        caseId,
        createdBy: by,
      });
  if (rows.length === 0) return;
  // A later decision on the same pair replaces the earlier one (a steward may reverse themselves).
  await db
    .insert(mdmLinkDecisions)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        mdmLinkDecisions.entityType,
        mdmLinkDecisions.aSystem,
        mdmLinkDecisions.aRecordId,
        mdmLinkDecisions.bSystem,
        mdmLinkDecisions.bRecordId,
      ],
      set: { kind, caseId, createdBy: by, createdAt: new Date() },
    });
}

async function linksOf(db: Db, entityType: string, kind: string): Promise<LinkDecision[]> {
  const rows = await db
    .select()
    .from(mdmLinkDecisions)
    .where(and(eq(mdmLinkDecisions.entityType, entityType), eq(mdmLinkDecisions.kind, kind)))
    .orderBy(asc(mdmLinkDecisions.id));
  return rows.map((r) => ({
    a: { system: r.aSystem, record_id: r.aRecordId },
    b: { system: r.bSystem, record_id: r.bRecordId },
    case_id: r.caseId,
  }));
}

/** Pairs a steward approved: the matcher links them on every later run (a = the smaller `system:record_id`). */
export const mustLinksFor = (db: Db, entityType: string) => linksOf(db, entityType, 'must_link');
/** Pairs a steward rejected: the matcher never links them again, and no case reopens for them. */
export const cannotLinksFor = (db: Db, entityType: string) => linksOf(db, entityType, 'cannot_link');

/** A steward override: on the golden record `entity_id` (or the one holding `records`), `attribute` is `value`. */
export interface StewardOverride {
  entity_id: string | null;
  records: RecordRef[];
  attribute: string;
  value: unknown;
  case_id: string | null;
  created_by: string;
  created_at: string;
}

/** Sets (or replaces) overrides; the target is the entity id when given, else the sorted record keys. */
export async function putOverrides(
  db: Db,
  entityType: string,
  target: { entity_id?: string | null; records?: RecordRef[] },
  values: Record<string, unknown>,
  by: string,
  caseId: string | null,
): Promise<void> {
  const records = sortedRecords(target.records ?? []);
  const key = target.entity_id ? `entity:${target.entity_id}` : `records:${records.map(recordKey).join(',')}`;
  for (const [attribute, value] of Object.entries(values))
    await db
      .insert(mdmOverrides)
      .values({
        entityType,
        target: key,
        entityId: target.entity_id ?? null,
        records,
        attribute,
        value,
        caseId,
        createdBy: by,
      })
      .onConflictDoUpdate({
        target: [mdmOverrides.entityType, mdmOverrides.target, mdmOverrides.attribute],
        set: { value, records, caseId, createdBy: by, createdAt: new Date() },
      });
}

/** Every steward override of an entity type, oldest first: survivorship applies them after choosing values. */
export async function overridesFor(db: Db, entityType: string): Promise<StewardOverride[]> {
  const rows = await db
    .select()
    .from(mdmOverrides)
    .where(eq(mdmOverrides.entityType, entityType))
    .orderBy(asc(mdmOverrides.id));
  return rows.map((r) => ({
    entity_id: r.entityId,
    records: r.records,
    attribute: r.attribute,
    value: r.value,
    case_id: r.caseId,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
  }));
}
