import { InvalidArgumentError, Option, type Command } from 'commander';
import type { z } from 'zod';
import { cloneRequestFields } from '../../schemas/clone';

/**
 * One `lakeward clone` flag per clone request field, derived from the request schema so a new field gets a
 * flag without touching the CLI. The server validates values; the CLI only turns text into JSON types.
 */
export type FlagKind = 'boolean' | 'number' | 'string' | 'list' | 'map' | 'json';

export interface FlagSpec {
  field: string;
  flag: string;
  kind: FlagKind;
  choices?: string[];
}

const POSITIONAL = new Set(['source_catalog', 'destination_catalog']);

type Def = {
  type: string;
  innerType?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

function describe(schema: z.ZodType): { kind: FlagKind; choices?: string[] } {
  const d = defOf(schema);
  if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default') return describe(d.innerType!);
  if (d.type === 'pipe') return describe(d.out!);
  if (d.type === 'boolean') return { kind: 'boolean' };
  if (d.type === 'number') return { kind: 'number' };
  if (d.type === 'enum') return { kind: 'string', choices: Object.values(d.entries ?? {}) };
  if (d.type === 'string') return { kind: 'string' };
  if (d.type === 'array') return defOf(d.element!).type === 'string' ? { kind: 'list' } : { kind: 'json' };
  if (d.type === 'record') return { kind: 'map' };
  return { kind: 'json' };
}

export function cloneFlagSpecs(): FlagSpec[] {
  return Object.entries(cloneRequestFields)
    .filter(([field]) => !POSITIONAL.has(field))
    .map(([field, schema]) => ({ field, flag: field.replaceAll('_', '-'), ...describe(schema as z.ZodType) }));
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

const parsers: Record<Exclude<FlagKind, 'boolean'>, (value: string, previous: unknown) => unknown> = {
  number: (v) => {
    const n = Number(v);
    if (v.trim() === '' || Number.isNaN(n)) throw new InvalidArgumentError('expected a number');
    return n;
  },
  string: (v) => v,
  list: (v, prev) => [
    ...((prev as string[] | undefined) ?? []),
    ...v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ],
  map: (v, prev) => {
    const at = v.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError('expected key=value');
    return { ...((prev as Record<string, string> | undefined) ?? {}), [v.slice(0, at)]: v.slice(at + 1) };
  },
  json: (v) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw new InvalidArgumentError('expected JSON');
    }
  },
};

const HELP: Record<FlagKind, string> = {
  boolean: '',
  number: '<n>',
  string: '<value>',
  list: '<a,b,...>',
  map: '<key=value>',
  json: '<json>',
};

/** Adds every clone request flag to `cmd` (booleans as --x / --no-x, unset unless given). */
export function addCloneFlags(cmd: Command): Command {
  for (const spec of cloneFlagSpecs()) {
    const field = `request field ${spec.field}`;
    if (spec.kind === 'boolean') {
      cmd.addOption(new Option(`--${spec.flag}`, `${field}: true`));
      cmd.addOption(new Option(`--no-${spec.flag}`, `${field}: false`));
      continue;
    }
    const repeat = spec.kind === 'map' || spec.kind === 'list' ? ' (repeatable)' : '';
    const choices = spec.choices ? ` (${spec.choices.join(' | ')})` : '';
    cmd.addOption(
      new Option(`--${spec.flag} ${HELP[spec.kind]}`, `${field}${choices}${repeat}`).argParser(parsers[spec.kind]),
    );
  }
  return cmd;
}

/** The POST /api/clone body: positional catalogs plus every flag that was given. */
export function cloneBodyFromFlags(
  source: string,
  destination: string,
  opts: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = { source_catalog: source, destination_catalog: destination };
  for (const spec of cloneFlagSpecs()) {
    const value = opts[camel(spec.flag)];
    if (value !== undefined) body[spec.field] = value;
  }
  return body;
}
