/** Column names matched exactly (any case), never by substring; the nearest names when one is unknown. Pure. */

export function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

export function exactColumn(word: string, columns: string[]): string | null {
  return columns.find((c) => c.toLowerCase() === word.toLowerCase()) ?? null;
}

/**
 * Up to five columns nearest to an unknown name: first those having it as a whole `_`-separated part (`id` →
 * `order_id`, `customer_id`: the name is ambiguous), then by edit distance.
 */
export function nearestColumns(word: string, columns: string[]): string[] {
  const w = word.toLowerCase();
  const parts = (c: string) => c.toLowerCase().split('_');
  const score = (c: string) => (parts(c).includes(w) ? -1000 + c.length : levenshtein(w, c.toLowerCase()));
  return [...columns].sort((a, b) => score(a) - score(b) || a.localeCompare(b)).slice(0, 5);
}
