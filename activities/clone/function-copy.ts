import type { Workspace } from '../../platform/port';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { isLogicalError } from './failures';
import { copySecurable, Warnings } from './metadata-copy';
import { FunctionCopier } from './routines';
import { nameSelected, selectionFor } from './selection';

export interface FunctionOutcome {
  cloned: number;
  failed: { fn: string; error: string }[];
  skipped: number;
  warnings: string[];
}

/** Functions of one schema: bodies with catalog references rewritten, then grants/owner/tags/comment. */
export async function copyFunctions(
  src: Workspace,
  dst: Workspace,
  ctx: TargetContext,
  schema: string,
): Promise<FunctionOutcome> {
  const o = ctx.options;
  const sel = selectionFor(o);
  const w = new Warnings();
  const copier = new FunctionCopier(src, dst, o.source_catalog, ctx.target.destinationCatalog, o.copy_comments);
  let fns = [...(await copier.sourceSchema(schema)).values()].filter((f) => nameSelected(f.name, sel));
  const out: FunctionOutcome = { cloned: 0, failed: [], skipped: 0, warnings: w.list };
  if (o.load_type === 'INCREMENTAL') {
    const have = new Set(
      (await dst.listFunctions(ctx.target.destinationCatalog, schema).catch(() => [])).map((f) => f.name.toLowerCase()),
    );
    out.skipped = fns.filter((f) => have.has(f.name.toLowerCase())).length;
    fns = fns.filter((f) => !have.has(f.name.toLowerCase()));
  }
  for (const fn of fns.sort((a, b) => a.name.localeCompare(b.name))) {
    try {
      await copier.create(fn);
    } catch (err) {
      if (!isLogicalError(err)) throw err;
      out.failed.push({ fn: `${schema}.${fn.name}`, error: (err as Error).message });
      continue;
    }
    const ref = { catalog: ctx.target.destinationCatalog, schema, name: fn.name };
    await copySecurable(
      src,
      dst,
      { type: 'FUNCTION', catalog: o.source_catalog, schema, name: fn.name },
      { type: 'FUNCTION', ...ref },
      o,
      w,
      `function ${schema}.${fn.name}`,
    );
    out.cloned += 1;
  }
  return out;
}
