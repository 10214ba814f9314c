import { isPlatformError } from '../../platform/errors';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import { evaluateChecks } from '../data-quality/evaluate';
import { normalizeCheck, type DqCheck } from '../data-quality/logic';
import { judgeValidation, planValidation, type OdcsDocument, type ValidationOutcome } from './logic';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Runs checks through the data-quality engine: together in one scan, or one by one to tell which cannot run. */
async function measure(ws: Workspace, tableFqn: string, columns: { name: string; type: string }[], checks: DqCheck[]) {
  const failures = new Map<string, number>();
  const errors = new Map<string, string>();
  const runnable: DqCheck[] = [];
  for (const c of checks) {
    const n = normalizeCheck(c, { columns });
    if (n.ok) runnable.push({ ...n.check[0], id: c.id, name: c.name });
    else errors.set(c.id!, n.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  }
  try {
    const ev = await evaluateChecks(ws, tableFqn, runnable, { columns });
    for (const [k, v] of ev.failures) failures.set(k, v);
    return { rows: ev.summary.total_rows, failures, errors };
  } catch (err) {
    if (!isPlatformError(err) || runnable.length < 2) throw err;
  }
  let rows = 0;
  for (const c of runnable) {
    try {
      const ev = await evaluateChecks(ws, tableFqn, [c], { columns });
      rows = ev.summary.total_rows;
      failures.set(c.id!, ev.failures.get(c.id!) ?? 0);
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      errors.set(c.id!, messageOf(err));
    }
  }
  return { rows, failures, errors };
}

/**
 * Validates a contract document against a table of `ws` as it is now: its columns and types, the required and
 * unique properties and the quality rules through the data-quality engine's evaluator, and the freshness SLA
 * from the table's last commit.
 */
export async function validateOnTable(
  ws: Workspace,
  doc: OdcsDocument,
  tableFqn: string,
  now: Date,
): Promise<ValidationOutcome> {
  const ref = parseFqn(tableFqn);
  const described = await ws.describeTable(ref).catch((err: unknown) => {
    if (isPlatformError(err) && err.code === 'NOT_FOUND') return null;
    throw err;
  });
  const columns = described?.columns.map((c) => ({ name: c.name, type: c.type })) ?? null;
  const plan = planValidation(doc, tableFqn, columns);
  if (!columns)
    return judgeValidation(plan, { rows: 0, failures: new Map(), errors: new Map(), lastModified: null, now });
  const checks = plan.checks.flatMap((c) => (c.check ? [c.check] : []));
  const measured = await measure(ws, tableFqn, columns, checks);
  const lastModified = plan.freshness ? ((await ws.tableHistory(ref, 1))[0]?.timestamp ?? null) : null;
  return judgeValidation(plan, { ...measured, lastModified, now });
}
