/**
 * Fellegi-Sunter training by expectation maximisation over agreement-pattern counts. A pattern gives each
 * attribute a comparison level (-1: a value is missing, 0: disagree, 1…top: ever closer agreement); the counts
 * come from one scan of the candidate pairs, so EM iterates over a few thousand patterns, not millions of pairs.
 * Pure: no I/O.
 */

export interface PatternCount {
  levels: number[];
  count: number;
}

export interface FsParams {
  /**
   * Prior probability that two records match: two random records when training knows how many pairs there are
   * (`trainPerRule`'s `population`), else a candidate pair.
   */
  lambda: number;
  /** m[attribute][level]: P(level | match); u[attribute][level]: P(level | non-match). Levels 0…top. */
  m: number[][];
  u: number[][];
}

const FLOOR = 1e-6;

const normalise = (xs: number[]) => {
  const floored = xs.map((x) => Math.max(x, FLOOR));
  const sum = floored.reduce((a, b) => a + b, 0);
  return floored.map((x) => x / sum);
};

/** P(match | pattern) under `p`; a missing value (-1) says nothing. */
export function matchProbability(p: FsParams, levels: number[]): number {
  let logOdds = Math.log(p.lambda / (1 - p.lambda));
  levels.forEach((l, a) => {
    if (l >= 0) logOdds += Math.log(p.m[a][l] / p.u[a][l]);
  });
  return 1 / (1 + Math.exp(-logOdds));
}

/** The match weight (log2 Bayes factor) of one attribute's level. */
export const levelWeight = (p: FsParams, attribute: number, level: number) =>
  Math.log2(p.m[attribute][level] / p.u[attribute][level]);

/** The starting point: matches mostly agree at the top level, non-matches mostly disagree. */
export function initialParams(levelCounts: number[], u?: number[][]): FsParams {
  const m = levelCounts.map((n) => normalise(Array.from({ length: n }, (_, l) => (l === n - 1 ? 0.8 : 0.2 / (n - 1)))));
  const uu =
    u ?? levelCounts.map((n) => normalise(Array.from({ length: n }, (_, l) => (l === 0 ? 0.9 : 0.1 / (n - 1)))));
  return { lambda: 0.1, m, u: uu };
}

/**
 * EM over pattern counts. `fixU` keeps u as given (estimated from random pairs, as Splink does); otherwise u is
 * re-estimated too. Stops when no parameter moves more than `tolerance`, or after `maxIterations`.
 */
export function trainEm(
  patterns: PatternCount[],
  start: FsParams,
  opts: { fixU?: boolean; fixM?: boolean; maxIterations?: number; tolerance?: number; population?: number } = {},
): FsParams & { iterations: number } {
  const { fixU = true, fixM = false, maxIterations = 200, tolerance = 1e-6, population } = opts;
  let p: FsParams = { lambda: start.lambda, m: start.m.map((r) => [...r]), u: start.u.map((r) => [...r]) };
  const attributes = p.m.length;
  for (let it = 1; it <= maxIterations; it++) {
    const mSum = p.m.map((r) => r.map(() => 0));
    const uSum = p.u.map((r) => r.map(() => 0));
    let matches = 0;
    let total = 0;
    for (const { levels, count } of patterns) {
      const w = matchProbability(p, levels);
      matches += w * count;
      total += count;
      for (let a = 0; a < attributes; a++) {
        const l = levels[a];
        if (l < 0) continue;
        mSum[a][l] += w * count;
        uSum[a][l] += (1 - w) * count;
      }
    }
    // `population`: the patterns are the candidate pairs among that many pairs, the others taken as non-matches
    const next: FsParams = {
      lambda: Math.min(Math.max(matches / Math.max(total, population ?? 0), population ? 1e-12 : FLOOR), 1 - FLOOR),
      m: fixM ? p.m : mSum.map(normalise),
      u: fixU ? p.u : uSum.map(normalise),
    };
    const moved = Math.max(
      Math.abs(next.lambda - p.lambda),
      ...next.m.flatMap((r, a) => r.map((x, l) => Math.abs(x - p.m[a][l]))),
      ...next.u.flatMap((r, a) => r.map((x, l) => Math.abs(x - p.u[a][l]))),
    );
    p = next;
    if (moved < tolerance) return { ...p, iterations: it };
  }
  return { ...p, iterations: maxIterations };
}

/** u from the level counts of random pairs (nearly all non-matches), per attribute over its non-missing pairs. */
export function uFromSample(levelCounts: number[], sample: PatternCount[]): number[][] {
  const sums = levelCounts.map((n) => Array.from({ length: n }, () => 0));
  for (const { levels, count } of sample)
    levels.forEach((l, a) => {
      if (l >= 0) sums[a][l] += count;
    });
  // One pseudo-count per level: a level no random pair reached is rare, not impossible.
  return sums.map((r) => normalise(r.map((x) => x + 1)));
}

/**
 * Training as Splink does it for blocked pairs: the pairs of each blocking rule all agree on that rule's
 * attributes, so each rule's EM leaves them out (as if missing) and estimates m of the other attributes; an
 * attribute's m is the mean over the rules that could estimate it (the start value when none could). λ is then
 * estimated with m and u held. With `candidates` (every candidate pair once) and `population` (all pairs of the
 * records), λ is the probability that two random records match: the expected matches among the candidates over
 * all pairs, the pairs no rule blocks taken as non-matches. The scores then weigh every attribute's agreement
 * against the odds of a random pair, as u does (u comes from random pairs); a λ of candidate pairs would count
 * the blocking attributes' agreement twice and score non-matches that share a block too high.
 */
export function trainPerRule(
  patternsByRule: PatternCount[][],
  blockedAttributes: number[][],
  start: FsParams,
  global?: { candidates: PatternCount[]; population: number },
): FsParams & { iterations: number } {
  const sums = start.m.map((r) => r.map(() => 0));
  const counts = start.m.map(() => 0);
  let iterations = 0;
  patternsByRule.forEach((patterns, i) => {
    const blocked = new Set(blockedAttributes[i]);
    const masked = patterns.map((p) => ({ count: p.count, levels: p.levels.map((l, a) => (blocked.has(a) ? -1 : l)) }));
    if (masked.length === 0) return;
    const fitted = trainEm(masked, start, { fixU: true });
    iterations += fitted.iterations;
    fitted.m.forEach((row, a) => {
      if (blocked.has(a)) return;
      counts[a]++;
      row.forEach((x, l) => (sums[a][l] += x));
    });
  });
  const m = start.m.map((row, a) => (counts[a] ? normalise(sums[a].map((x) => x / counts[a])) : row));
  const all = global ? global.candidates : patternsByRule.flat();
  const lambda = global
    ? Math.min(start.lambda, all.reduce((n, p) => n + p.count, 0) / global.population)
    : start.lambda;
  const withLambda = trainEm(
    all,
    { lambda, m, u: start.u },
    { fixU: true, fixM: true, population: global?.population, tolerance: global ? 1e-9 : undefined },
  );
  return { ...withLambda, iterations: iterations + withLambda.iterations };
}
