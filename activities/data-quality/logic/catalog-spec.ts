import type { ArgType, CheckArg, CheckFunction, CheckLevel, CheckNeed } from './types';

export type Spec = CheckFunction;

/** `name!:type - description` (the `!` marks a required argument). */
function arg(text: string): CheckArg {
  const m = /^(\w+)(!?):(\w+)(?: - (.*))?$/.exec(text);
  if (!m) throw new Error(`bad argument spec ${text}`);
  return { name: m[1], required: m[2] === '!', type: m[3] as ArgType, description: m[4] ?? m[1] };
}

export function spec(
  name: string,
  category: string,
  level: CheckLevel,
  description: string,
  args: string[],
  needs?: CheckNeed[],
): Spec {
  return { name, category, level, description, args: args.map(arg), ...(needs ? { needs } : {}) };
}
