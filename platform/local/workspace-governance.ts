import { InvalidInputError } from '../errors';
import type { Grant, Securable, SecurableType } from '../types';
import { readJson } from './metastore/files';
import type { BaseEntry } from './metastore/types';
import type { LocalContext } from './workspace-context';

/** Owner, grants, tags and comments of any securable, each a read-modify-write of that object's JSON file under its lock. */
const TYPES: SecurableType[] = ['CATALOG', 'SCHEMA', 'TABLE', 'VIEW', 'FUNCTION', 'VOLUME'];

export interface Target {
  file: string;
  label: string;
}

export async function target(ctx: LocalContext, s: Securable): Promise<Target> {
  if (!s || !TYPES.includes(s.type))
    throw new InvalidInputError(`securable type must be one of ${TYPES.join(', ')}, got ${JSON.stringify(s?.type)}`);
  const catalog = ctx.name(s.catalog, 'catalog name');
  if (s.type === 'CATALOG') {
    await ctx.store.getCatalog(catalog);
    return { file: ctx.store.catalogFile(catalog), label: `catalog ${catalog}` };
  }
  const schema = ctx.name(s.schema ?? '', 'schema name');
  if (s.type === 'SCHEMA') {
    await ctx.store.getSchema(catalog, schema);
    return { file: ctx.store.schemaFile(catalog, schema), label: `schema ${catalog}.${schema}` };
  }
  const ref = { catalog, schema, name: ctx.name(s.name ?? '', `${s.type.toLowerCase()} name`) };
  const kind = s.type === 'FUNCTION' ? 'functions' : s.type === 'VOLUME' ? 'volumes' : 'tables';
  await ctx.store.getEntry(kind, ref);
  return { file: ctx.store.entryFile(kind, ref), label: `${s.type.toLowerCase()} ${catalog}.${schema}.${ref.name}` };
}

async function read(ctx: LocalContext, s: Securable): Promise<BaseEntry> {
  const t = await target(ctx, s);
  const e = await readJson<BaseEntry>(t.file);
  if (!e) throw new InvalidInputError(`${t.label} vanished`);
  return e;
}

async function change(ctx: LocalContext, s: Securable, fn: (e: BaseEntry) => void): Promise<void> {
  const t = await target(ctx, s);
  await ctx.store.update<BaseEntry>(t.file, t.label, fn);
}

function principal(p: unknown): string {
  if (typeof p !== 'string' || !p.trim() || p.length > 255 || [...p].some((ch) => ch < ' ' || ch === '`')) {
    throw new InvalidInputError(`invalid principal ${JSON.stringify(p)}`);
  }
  return p.trim();
}

/** SQL spelling: upper case, spaces (`USE CATALOG`); the REST spelling `USE_CATALOG` is accepted too. */
export function privilege(p: unknown): string {
  const text =
    typeof p === 'string'
      ? p
          .trim()
          .toUpperCase()
          .replace(/[_\s]+/g, ' ')
      : '';
  if (!/^[A-Z][A-Z ]{0,63}$/.test(text)) throw new InvalidInputError(`invalid privilege ${JSON.stringify(p)}`);
  return text;
}

function privileges(list: unknown): string[] {
  if (!Array.isArray(list) || list.length === 0)
    throw new InvalidInputError('privileges: at least one privilege is required');
  return [...new Set(list.map(privilege))];
}

export function checkTags(tags: unknown): Record<string, string> {
  if (!tags || typeof tags !== 'object' || Array.isArray(tags))
    throw new InvalidInputError('tags must be an object of strings');
  for (const [k, v] of Object.entries(tags)) {
    if (!k.trim() || k.length > 255) throw new InvalidInputError(`invalid tag key ${JSON.stringify(k)}`);
    if (typeof v !== 'string' || v.length > 1000)
      throw new InvalidInputError(`tag ${k}: value must be a string of at most 1000 characters`);
  }
  return tags as Record<string, string>;
}

export const getOwner = async (ctx: LocalContext, s: Securable) => (await read(ctx, s)).owner;
export const setOwner = async (ctx: LocalContext, s: Securable, p: string) => {
  const owner = principal(p);
  return change(ctx, s, (e) => void (e.owner = owner));
};

export async function getGrants(ctx: LocalContext, s: Securable): Promise<Grant[]> {
  const e = await read(ctx, s);
  return Object.entries(e.grants)
    .filter(([, privs]) => privs.length > 0)
    .map(([p, privs]) => ({ principal: p, privileges: [...privs].sort() }))
    .sort((a, b) => a.principal.localeCompare(b.principal));
}
export async function grant(ctx: LocalContext, s: Securable, p: string, list: string[]): Promise<void> {
  const who = principal(p);
  const privs = privileges(list);
  return change(ctx, s, (e) => void (e.grants[who] = [...new Set([...(e.grants[who] ?? []), ...privs])].sort()));
}
export async function revoke(ctx: LocalContext, s: Securable, p: string, list: string[]): Promise<void> {
  const who = principal(p);
  const privs = privileges(list);
  return change(ctx, s, (e) => {
    const left = (e.grants[who] ?? []).filter((x) => !privs.includes(x) && !privs.includes('ALL PRIVILEGES'));
    if (left.length) e.grants[who] = left;
    else delete e.grants[who];
  });
}

export const getTags = async (ctx: LocalContext, s: Securable) => ({ ...(await read(ctx, s)).tags });
export async function setTags(ctx: LocalContext, s: Securable, tags: Record<string, string>): Promise<void> {
  const t = checkTags(tags);
  return change(ctx, s, (e) => void Object.assign(e.tags, t));
}
export async function unsetTags(ctx: LocalContext, s: Securable, keys: string[]): Promise<void> {
  if (!Array.isArray(keys)) throw new InvalidInputError('keys must be an array of tag names');
  return change(ctx, s, (e) => keys.forEach((k) => delete e.tags[k]));
}

export const getComment = async (ctx: LocalContext, s: Securable) => (await read(ctx, s)).comment;
export async function setComment(ctx: LocalContext, s: Securable, comment: string | null): Promise<void> {
  if (comment !== null && typeof comment !== 'string') throw new InvalidInputError('comment must be a string or null');
  return change(ctx, s, (e) => void (e.comment = comment && comment.length ? comment : null));
}
