import { parse } from 'csv-parse/sync';
import type { Db } from '../../store/db';
import { aliasRows, builtinDomains, normaliseAlias, validOn, type RefCode } from '../../activities/mdm/logic/reference';
import { lit } from '../../activities/data-quality/logic/sql-text';
import type { Workspace } from '../../platform/port';
import {
  aliasOwners,
  allAliases,
  ensureDomain,
  getCode,
  getDomain,
  putCode,
  seedDomain,
  type RefCodeRow,
} from '../../store/mdm/reference';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { invalid, mdmWorkspace } from './service';

/** The SQL-usable alias map: `<mdm.catalog>.mdm.reference_aliases (domain, alias, code, valid_from, valid_to)`. */
export const mappingTable = (catalog: string) => ({ catalog, schema: 'mdm', name: 'reference_aliases' });

const seeded = new WeakMap<Db, Promise<void>>();

/** Loads ISO 3166-1 and ISO 4217 into the store once (a domain that exists is left as it is). */
export function ensureBuiltins(db: Db): Promise<void> {
  let p = seeded.get(db);
  if (!p) {
    p = (async () => {
      for (const d of builtinDomains()) {
        const { rows } = aliasRows(d.codes);
        await seedDomain(
          db,
          d,
          d.codes.map((c) => ({ domain: d.name, code: c.code, description: c.description, aliases: c.aliases })),
          rows,
        );
      }
    })();
    p.catch(() => seeded.delete(db));
    seeded.set(db, p);
  }
  return p;
}

export const codeView = (r: RefCodeRow, day: string) => ({
  code: r.code,
  description: r.description,
  aliases: r.aliases,
  parent: r.parent,
  valid_from: r.validFrom,
  valid_to: r.validTo,
  valid_now: validOn({ valid_from: r.validFrom, valid_to: r.validTo }, day),
});

export interface CodeProblem {
  status: 409 | 422;
  path: string;
  message: string;
}

/**
 * Checks a code before it is written: valid_from before valid_to, the parent exists (in the domain, or among
 * `pending` codes of the same import), and none of its normalised aliases belongs to another code (409).
 */
export async function checkCode(
  db: Db,
  domain: string,
  c: RefCode,
  pending: Set<string> = new Set(),
): Promise<{ problems: CodeProblem[]; aliases: string[] }> {
  const problems: CodeProblem[] = [];
  if (c.valid_from && c.valid_to && c.valid_to <= c.valid_from)
    problems.push({ status: 422, path: 'valid_to', message: 'must be after valid_from' });
  if (c.parent && c.parent !== c.code && !pending.has(c.parent) && !(await getCode(db, domain, c.parent)))
    problems.push({ status: 422, path: 'parent', message: `no code '${c.parent}' in ${domain}` });
  if (c.parent === c.code) problems.push({ status: 422, path: 'parent', message: 'a code cannot be its own parent' });
  const aliases = [...new Set([c.code, ...c.aliases].map(normaliseAlias).filter(Boolean))];
  const owners = await aliasOwners(db, domain, aliases);
  for (const [alias, owner] of owners)
    if (owner !== c.code)
      problems.push({ status: 409, path: 'aliases', message: `'${alias}' is already an alias of ${owner}` });
  return { problems, aliases };
}

export function problemError(problems: CodeProblem[], prefix = 'body'): HttpError {
  const issues = problems.map((p) => ({ path: `${prefix}.${p.path}`, message: p.message }));
  if (problems.some((p) => p.status === 409))
    return new HttpError(409, 'CONFLICT', issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
  return invalid('INVALID_CODE', 'Invalid code', issues);
}

export async function saveCode(db: Db, domain: string, c: RefCode, aliases: string[]) {
  await ensureDomain(db, domain, null);
  return putCode(
    db,
    {
      domain,
      code: c.code,
      description: c.description,
      aliases: c.aliases,
      parent: c.parent,
      validFrom: c.valid_from,
      validTo: c.valid_to,
    },
    aliases,
  );
}

export interface ImportLine {
  line: number;
  code: string | null;
  status: 'created' | 'updated' | 'conflict' | 'invalid';
  message?: string;
}

const splitAliases = (s: string | undefined) =>
  (s ?? '')
    .split(/[,;|]/)
    .map((a) => a.trim())
    .filter(Boolean);

const dateOrNull = (s: string | undefined) => (s && s.trim() ? s.trim() : null);
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Imports CSV (RFC 4180; header code, description, aliases, valid_from and optionally valid_to, parent; an alias
 * list is one quoted field, its aliases separated by commas). Each line is reported: created, updated, conflict
 * (a code twice in the file, or an alias of another code) or invalid (no code, a bad date, a parent that exists
 * nowhere). A parent may come later in the file.
 */
export async function importCsv(db: Db, domain: string, text: string): Promise<ImportLine[]> {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, trim: true, info: true, bom: true });
  } catch (err) {
    throw invalid('INVALID_CSV', 'The CSV cannot be read', [{ path: 'body', message: (err as Error).message }]);
  }
  const header = records.length ? Object.keys(records[0].record) : [];
  if (records.length && !header.includes('code'))
    throw invalid('INVALID_CSV', 'The CSV has no code column', [
      { path: 'body', message: 'the header must name code' },
    ]);
  const out: ImportLine[] = [];
  const seen = new Map<string, number>();
  const ready: { line: number; c: RefCode }[] = [];
  for (const { record, info } of records) {
    const line = info.lines;
    const code = (record.code ?? '').trim();
    if (!code) {
      out.push({ line, code: null, status: 'invalid', message: 'code is empty' });
      continue;
    }
    if (seen.has(code)) {
      out.push({ line, code, status: 'conflict', message: `code ${code} is on line ${seen.get(code)} already` });
      continue;
    }
    seen.set(code, line);
    const c: RefCode = {
      code,
      description: record.description?.trim() || null,
      aliases: splitAliases(record.aliases),
      parent: record.parent?.trim() || null,
      valid_from: dateOrNull(record.valid_from),
      valid_to: dateOrNull(record.valid_to),
    };
    const bad = [c.valid_from, c.valid_to].find((d) => d && !ISO_DAY.test(d));
    if (bad) out.push({ line, code, status: 'invalid', message: `'${bad}' is not a yyyy-MM-dd date` });
    else ready.push({ line, c });
  }
  // Parents first: a code waits until its parent is in the store (or fails when no pass adds it).
  let waiting = ready;
  while (waiting.length) {
    const next: typeof waiting = [];
    const handled = new Set<string>();
    for (const item of waiting) {
      const parentWaits =
        item.c.parent && !handled.has(item.c.parent) && waiting.some((w) => w !== item && w.c.code === item.c.parent);
      handled.add(item.c.code);
      if (parentWaits) {
        next.push(item);
        continue;
      }
      const existed = Boolean(await getCode(db, domain, item.c.code));
      const { problems, aliases } = await checkCode(db, domain, item.c);
      if (problems.length) {
        const conflict = problems.some((p) => p.status === 409);
        out.push({
          line: item.line,
          code: item.c.code,
          status: conflict ? 'conflict' : 'invalid',
          message: problems.map((p) => `${p.path}: ${p.message}`).join('; '),
        });
        continue;
      }
      await saveCode(db, domain, item.c, aliases);
      out.push({ line: item.line, code: item.c.code, status: existed ? 'updated' : 'created' });
    }
    if (next.length === waiting.length) {
      for (const item of next)
        out.push({
          line: item.line,
          code: item.c.code,
          status: 'invalid',
          message: `parent: a cycle through ${item.c.parent}`,
        });
      break;
    }
    waiting = next;
  }
  return out.sort((a, b) => a.line - b.line);
}

/**
 * Rewrites the SQL mapping table from the store (one CREATE OR REPLACE … AS SELECT): ingest joins it on
 * `alias = <normalised value>` and `valid_from <= day < valid_to` to standardise codes.
 */
export async function publishMapping(deps: AppDeps, ws?: Workspace): Promise<{ table: string; rows: number }> {
  const w = ws ?? (await mdmWorkspace(deps));
  const ref = mappingTable(deps.config.mdm.catalog);
  await w.createCatalog({ name: ref.catalog, ifNotExists: true });
  await w.createSchema({ catalog: ref.catalog, name: ref.schema, ifNotExists: true });
  const rows = await allAliases(deps.store.db);
  const d = (v: string | null) => (v ? `CAST(${lit(v)} AS DATE)` : 'CAST(NULL AS DATE)');
  const values = rows.map(
    (r) => `(${lit(r.domain)}, ${lit(r.alias)}, ${lit(r.code)}, ${d(r.validFrom)}, ${d(r.validTo)})`,
  );
  const query = values.length
    ? `SELECT * FROM (VALUES ${values.join(', ')}) AS m(domain, alias, code, valid_from, valid_to)`
    : `SELECT CAST(NULL AS STRING) AS domain, CAST(NULL AS STRING) AS alias, CAST(NULL AS STRING) AS code, CAST(NULL AS DATE) AS valid_from, CAST(NULL AS DATE) AS valid_to WHERE FALSE`;
  await w.createTableAs({ ref, query, replace: true, comment: 'MDM reference data: normalised alias → code' });
  return { table: `${ref.catalog}.${ref.schema}.${ref.name}`, rows: rows.length };
}

export const getDomainRow = getDomain;
