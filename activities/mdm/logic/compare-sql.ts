import type { ComparisonLevel, MdmModel } from '../../../schemas/mdm';
import { ident } from '../../data-quality/logic/sql-text';

/**
 * Comparing two records of a match run: each attribute's comparison level (-1 missing, 0 disagree … top exact),
 * from the comparison functions both engines have, each computed once per pair.
 */

export const attributesOf = (model: MdmModel) => Object.keys(model.attributes);
/** Levels of an attribute: 0 disagree, then each comparison from the loosest, and exact on top. */
export const levelCount = (model: MdmModel, attr: string) => model.attributes[attr].comparisons.length + 2;
export const gammaColumn = (attr: string) => `g_${attr}`;
/** The work-table column an attribute is compared on: names without accents (`<attr>__cmp`), others as stored. */
export const compareColumn = (model: MdmModel, attr: string) =>
  ident(model.attributes[attr].kind === 'name' ? `${attr}__cmp` : attr);

function condition(level: ComparisonLevel, l: string, r: string): string {
  switch (level.type) {
    case 'exact':
      return `${l} = ${r}`;
    case 'jaro_winkler':
      return `jaro_winkler_similarity(${l}, ${r}) >= ${level.threshold}`;
    case 'levenshtein':
      return `levenshtein(${l}, ${r}) <= ${level.max}`;
    case 'date_distance':
      return `abs(datediff(CAST(${l} AS DATE), CAST(${r} AS DATE))) <= ${level.days}`;
  }
}

/**
 * Names written in each other's place agree: a name attribute is equal when the two records hold its value and
 * another name attribute's crosswise ("fuller william" and "william fuller" as first and last name), so a given
 * name typed into the family-name field neither scores as two disagreements nor trips a hard identifier.
 */
export function swappedExpr(model: MdmModel, attr: string, l = 'l', r = 'r'): string | null {
  if (model.attributes[attr].kind !== 'name') return null;
  const col = (t: string, a: string) => `${t}.${compareColumn(model, a)}`;
  const partners = attributesOf(model).filter((o) => o !== attr && model.attributes[o].kind === 'name');
  if (!partners.length) return null;
  const swapped = partners.map(
    (o) => `(${col(l, attr)} = ${col(r, o)} AND ${col(l, o)} = ${col(r, attr)} AND ${col(l, attr)} <> ${col(l, o)})`,
  );
  return swapped.length === 1 ? swapped[0] : `(${swapped.join(' OR ')})`;
}

/** Equal values, or (names) the values swapped with another name attribute. */
function equalExpr(model: MdmModel, attr: string, l: string, r: string): string {
  const eq = `${l}.${compareColumn(model, attr)} = ${r}.${compareColumn(model, attr)}`;
  const swapped = swappedExpr(model, attr, l, r);
  return swapped ? `(${eq} OR ${swapped})` : eq;
}

/** The comparison level of an attribute for the pair l, r: -1 missing, 0 disagree … top exact. */
export function gammaExpr(model: MdmModel, attr: string, l = 'l', r = 'r'): string {
  const a = `${l}.${compareColumn(model, attr)}`;
  const b = `${r}.${compareColumn(model, attr)}`;
  const levels = model.attributes[attr].comparisons;
  const top = levels.length + 1;
  const whens = [`WHEN ${a} IS NULL OR ${b} IS NULL THEN -1`, `WHEN ${equalExpr(model, attr, l, r)} THEN ${top}`];
  levels.forEach((c, i) => whens.push(`WHEN ${condition(c, a, b)} THEN ${top - 1 - i}`));
  return `CASE ${whens.join(' ')} ELSE 0 END`;
}

const METRICS = {
  jaro_winkler: (l: string, r: string) => `jaro_winkler_similarity(${l}, ${r})`,
  levenshtein: (l: string, r: string) => `levenshtein(${l}, ${r})`,
  date_distance: (l: string, r: string) => `abs(datediff(CAST(${l} AS DATE), CAST(${r} AS DATE)))`,
};
type MetricType = keyof typeof METRICS;

/**
 * An attribute's comparison function of one type for a pair. Edit distances are only read against the levels'
 * largest `max`: values whose lengths differ by more are at least that far apart, so the distance is not computed
 * (most pairs of random records, and the u sample is made of them).
 */
function metric(model: MdmModel, attr: string, type: MetricType, a: string, b: string): string {
  if (type !== 'levenshtein') return METRICS[type](a, b);
  const max = Math.max(...model.attributes[attr].comparisons.map((c) => (c.type === 'levenshtein' ? c.max : 0)));
  return `CASE WHEN abs(length(${a}) - length(${b})) > ${max} THEN ${max + 1} ELSE ${METRICS.levenshtein(a, b)} END`;
}
const metricColumn = (attr: string, type: string) => ident(`m_${type}_${attr}`);

/**
 * Each attribute's null test, equality and comparison functions, each computed once per pair (a `CASE` over the
 * levels would call the function again for every level a pair fails), for `gammaFromMetrics` over them.
 */
export function metricsSelect(model: MdmModel, l = 'l', r = 'r'): string {
  return attributesOf(model)
    .flatMap((attr) => {
      const [a, b] = [`${l}.${compareColumn(model, attr)}`, `${r}.${compareColumn(model, attr)}`];
      const types = [...new Set(model.attributes[attr].comparisons.map((c) => c.type))].filter(
        (x): x is MetricType => x !== 'exact',
      );
      return [
        `(${a} IS NULL OR ${b} IS NULL) AS ${ident(`nul_${attr}`)}`,
        `coalesce(${equalExpr(model, attr, l, r)}, FALSE) AS ${ident(`eq_${attr}`)}`,
        ...types.map(
          (x) => `CASE WHEN ${a} = ${b} THEN NULL ELSE ${metric(model, attr, x, a, b)} END AS ${metricColumn(attr, x)}`,
        ),
      ];
    })
    .join(', ');
}

/** The comparison level of an attribute from the columns of `metricsSelect` (the same levels as gammaExpr). */
export function gammaFromMetrics(model: MdmModel, attr: string): string {
  const levels = model.attributes[attr].comparisons;
  const top = levels.length + 1;
  const whens = [`WHEN ${ident(`nul_${attr}`)} THEN -1`, `WHEN ${ident(`eq_${attr}`)} THEN ${top}`];
  levels.forEach((c, i) => {
    const cond =
      c.type === 'exact'
        ? ident(`eq_${attr}`)
        : c.type === 'jaro_winkler'
          ? `${metricColumn(attr, c.type)} >= ${c.threshold}`
          : c.type === 'levenshtein'
            ? `${metricColumn(attr, c.type)} <= ${c.max}`
            : `${metricColumn(attr, c.type)} <= ${c.days}`;
    whens.push(`WHEN ${cond} THEN ${top - 1 - i}`);
  });
  return `CASE ${whens.join(' ')} ELSE 0 END`;
}
