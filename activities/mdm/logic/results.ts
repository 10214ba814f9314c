/** Turning a match step's result rows into numbers. Pure. */

const num = (v: unknown) => Number(v ?? 0);

export interface BlockingCount {
  rule: string;
  pairs: number;
}

/** Rows of blockingCountsSql, in rule order. */
export function blockingOf(rows: Record<string, unknown>[]): BlockingCount[] {
  return rows
    .map((r) => ({ rule: String(r.rule), pairs: num(r.pairs), position: num(r.position) }))
    .sort((a, b) => a.position - b.position)
    .map(({ rule, pairs }) => ({ rule, pairs }));
}

export interface Evaluation {
  records: number;
  pairwise: {
    precision: number;
    recall: number;
    f1: number;
    true_pairs: number;
    predicted_pairs: number;
    correct_pairs: number;
  };
  b_cubed: { precision: number; recall: number; f1: number };
}

const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r));
const round4 = (x: number) => Math.round(x * 10000) / 10000;

/** The row of evaluateSql as pairwise and B-cubed precision, recall and F1. */
export function evaluationOf(r: Record<string, unknown>): Evaluation {
  const records = num(r.records);
  const [tp, predicted, actual] = [num(r.tp), num(r.predicted), num(r.actual)];
  const p = predicted === 0 ? 1 : tp / predicted;
  const rc = actual === 0 ? 1 : tp / actual;
  const bp = records === 0 ? 0 : num(r.b3_precision_sum) / records;
  const br = records === 0 ? 0 : num(r.b3_recall_sum) / records;
  return {
    records,
    pairwise: {
      precision: round4(p),
      recall: round4(rc),
      f1: round4(f1(p, rc)),
      true_pairs: actual,
      predicted_pairs: predicted,
      correct_pairs: tp,
    },
    b_cubed: { precision: round4(bp), recall: round4(br), f1: round4(f1(bp, br)) },
  };
}
