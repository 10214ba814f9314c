import { levenshtein } from './columns';

/** Sentences the grammar reads, on a column of the table (the one the text names, else the first), nearest first. Pure. */
export function suggestions(text: string, columns: string[]): string[] {
  const words = text.toLowerCase().split(/[^a-z0-9_]+/);
  const c = columns.find((x) => words.includes(x.toLowerCase())) ?? columns[0] ?? 'column_name';
  const all = [
    `${c} must not be null`,
    `${c} must be unique`,
    `${c} must be between 0 and 100`,
    `${c} must be at least 0`,
    `${c} must be at most 100`,
    `${c} must be one of 'a', 'b'`,
    `${c} must be a valid email`,
    `${c} must match regex '^[A-Z]+$'`,
    `${c} must be updated within 24 hours`,
    `the table must have at least 1000 rows`,
    `${c} must not be null when ${c} is 'x'`,
  ];
  const t = text.toLowerCase();
  return all.sort((a, b) => levenshtein(t, a.toLowerCase()) - levenshtein(t, b.toLowerCase())).slice(0, 5);
}
