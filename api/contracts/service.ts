import { parse as parseYaml } from 'yaml';
import {
  contractSettings,
  documentIssues,
  nextVersion,
  parseContractId,
  stamp,
  type OdcsDocument,
} from '../../activities/contracts/logic';
import {
  attachmentsOf,
  getContract,
  getVersion,
  listVersions,
  putDraft,
  type ContractRow,
} from '../../store/contracts/repo';
import type { AppDeps } from '../deps';
import { HttpError, conflict, notFound } from '../middleware/http-error';

/** 422 naming the JSON path of each problem when a document does not satisfy the ODCS JSON Schema (and ours). */
export function assertValidDocument(doc: unknown, field = 'body.document'): asserts doc is OdcsDocument {
  const issues = documentIssues(doc);
  if (issues.length === 0) return;
  throw new HttpError(
    422,
    'INVALID_CONTRACT',
    `${issues[0].path} ${issues[0].message}`,
    issues.map((i) => ({ path: `${field}${i.path.slice(1)}`, message: i.message })),
  );
}

/** A YAML document as an object; 400 naming the field when it is not YAML or not a mapping. */
export function parseDocumentYaml(text: string, field: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new HttpError(400, 'VALIDATION_ERROR', `${field} is not valid YAML`, [
      { path: field, message: (err as Error).message.split('\n')[0] },
    ]);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new HttpError(400, 'VALIDATION_ERROR', `${field} must be a YAML mapping`, [
      { path: field, message: 'expected an ODCS document (a mapping)' },
    ]);
  return doc as Record<string, unknown>;
}

export function parseIdParam(id: string) {
  const p = parseContractId(id);
  if (!p) throw notFound(`No contract ${id}`);
  return p;
}

export async function requireContract(deps: AppDeps, name: string): Promise<ContractRow> {
  const row = await getContract(deps.store.db, name);
  if (!row) throw notFound(`No contract ${name}`);
  return row;
}

const draftVersion = (row: ContractRow) => (row.draft ? String(row.draft.id).split('@')[1] : null);

/** The document an id names: a version (`orders@1.0`, the draft's too) or, for a name, newest published, else the draft. */
export async function documentOf(deps: AppDeps, id: string) {
  const { name, version } = parseIdParam(id);
  const row = await requireContract(deps, name);
  const want = version ?? row.latestVersion ?? draftVersion(row);
  if (want && want === draftVersion(row) && (version || !row.latestVersion))
    return { row, version: want, doc: row.draft as OdcsDocument, immutable: false };
  const v = want ? await getVersion(deps.store.db, name, want) : undefined;
  if (!v) throw notFound(`No contract ${id}`);
  return { row, version: want!, doc: v.document as OdcsDocument, immutable: true };
}

export async function contractView(deps: AppDeps, row: ContractRow) {
  const versions = (await listVersions(deps.store.db, row.name)).map((v) => v.version);
  const current = row.latestVersion
    ? ((await getVersion(deps.store.db, row.name, row.latestVersion))?.document as OdcsDocument | undefined)
    : undefined;
  const settings = contractSettings((row.draft as OdcsDocument | null) ?? current ?? ({} as OdcsDocument));
  return {
    name: row.name,
    status: row.status as 'draft' | 'active' | 'archived',
    draft_id: row.draft ? String(row.draft.id) : null,
    latest_version: row.latestVersion,
    versions,
    attached_to: await attachmentsOf(deps.store.db, row.name),
    schedule: settings.schedule,
    enforcement_endpoint: settings.enforcementEndpoint,
    severity: settings.severity,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function documentView(deps: AppDeps, id: string) {
  const d = await documentOf(deps, id);
  return {
    ...(await contractView(deps, d.row)),
    id: d.doc.id,
    version: d.version,
    immutable: d.immutable,
    document: d.doc,
  };
}

/**
 * Stores `doc` as a new draft of its contract (named by its id or name): version 1.0 for a new contract, the newest
 * published + 0.1 otherwise. 409 when the contract already has an open draft (PUT changes a draft).
 */
export async function createDraft(deps: AppDeps, raw: Record<string, unknown>, by: string, nameOverride?: string) {
  const fromId = typeof raw.id === 'string' ? parseContractId(raw.id)?.name : undefined;
  const name = nameOverride ?? fromId ?? (typeof raw.name === 'string' ? parseContractId(raw.name)?.name : undefined);
  if (!name)
    throw new HttpError(422, 'INVALID_CONTRACT', '$.id must have the form name@major.minor', [
      { path: 'body.document.id', message: 'expected name@major.minor (or a name of letters, digits, _ and -)' },
    ]);
  const existing = await getContract(deps.store.db, name);
  if (existing?.draft)
    throw conflict(`Contract ${name} already has a draft (${String(existing.draft.id)}); change it with PUT`);
  const doc = stamp(raw, name, nextVersion(existing?.latestVersion ?? null), 'draft');
  assertValidDocument(doc);
  await putDraft(deps.store.db, name, doc, by, { create: !existing });
  return documentView(deps, doc.id);
}

/** Replaces the open draft (only a draft: a published version never changes, 409). */
export async function updateDraft(deps: AppDeps, id: string, raw: Record<string, unknown>, by: string) {
  const { name, version } = parseIdParam(id);
  const row = await requireContract(deps, name);
  const draft = draftVersion(row);
  if (version && version !== draft) {
    if (await getVersion(deps.store.db, name, version))
      throw conflict(`Contract ${name}@${version} is published; published versions never change`);
    throw notFound(`No contract ${id}`);
  }
  if (!draft)
    throw conflict(`Contract ${name} has no draft: its versions are published and immutable (import a new draft)`);
  const doc = stamp(raw, name, draft, 'draft');
  assertValidDocument(doc);
  await putDraft(deps.store.db, name, doc, by, { create: false });
  return documentView(deps, doc.id);
}
