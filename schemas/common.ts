import { z } from 'zod';

/** One problem with a request: where (dotted path such as `body.source_catalog`) and what. */
export const ErrorDetailSchema = z.object({ path: z.string(), message: z.string() }).meta({ id: 'ErrorDetail' });

/** The one error body every endpoint returns. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'VALIDATION_ERROR' }),
      message: z.string(),
      details: z.array(ErrorDetailSchema),
    }),
    request_id: z.string(),
  })
  .meta({ id: 'ErrorBody' });

export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The most rows one list request may ask for. */
export const MAX_PAGE_LIMIT = 1000;

/**
 * Query parameters of every list endpoint (`?limit=&offset=`; strings from the URL are coerced). Routes
 * differ only in the default page size; extend it for their filters: `paginationQuery(50).extend({...})`.
 */
export function paginationQuery(defaultLimit = 100) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(defaultLimit),
    offset: z.coerce.number().int().min(0).default(0),
  });
}

export const PaginationQuerySchema = paginationQuery();
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

/** C0 and C1 control characters, NUL, newline and tab included (matching them is the point). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Bidirectional overrides, embeddings, isolates and marks: they make a name display as another one. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** A UTF-16 half without its other half is not a character: not printable, not storable in Postgres. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `value` is not printable text, or null when it is. */
export function printableProblem(value: string): string | null {
  if (CONTROL.test(value)) return 'must not contain control characters (NUL, newline, tab …)';
  if (BIDI.test(value)) return 'must not contain bidirectional override characters (U+202A–U+202E, U+2066–U+2069)';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode text';
  return null;
}

/** Why `value` is not an acceptable identifier, or null when it is (see IdentifierSchema). */
export function identifierProblem(value: string): string | null {
  if (value.trim().length === 0) return 'must not be empty or blank';
  if (value.length > 255) return 'must be at most 255 characters';
  const printable = printableProblem(value);
  if (printable) return printable;
  if (value.includes('/')) return "must not contain '/'";
  if (value.includes('..')) return "must not contain '..'";
  return null;
}

/**
 * Every name a request carries (catalog, schema, table, volume, warehouse, job, target …): 1–255 characters,
 * not blank, printable (no control or bidi override characters), no `/` and no `..` (names become URL and
 * folder path parts). Backticks and quotes pass here: Databricks accepts them in quoted identifiers and every
 * identifier is quoted where it reaches SQL; adapters with a stricter rule (the local lakehouse: letters,
 * digits, `_` and `-`) refuse them before a job is queued.
 */
export const IdentifierSchema = z
  .string()
  .min(1)
  .max(255)
  .superRefine((value, ctx) => {
    // Lengths are the checks above (kept there so OpenAPI shows them); one message per problem.
    if (value.length < 1 || value.length > 255) return;
    const problem = identifierProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ description: 'A name: 1–255 printable characters, no / and no ..' });

/** Free text that may hold `/` (a storage location, a description) but no control or bidi characters. */
export const PrintableTextSchema = z.string().superRefine((value, ctx) => {
  const problem = printableProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A regular expression given as text: it must compile (with the flags it is used with). */
export function regexSchema(flags = '') {
  return z.string().superRefine((value, ctx) => {
    try {
      new RegExp(value, flags);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(err as Error).message}` });
    }
  });
}

/**
 * A pattern matching `source` in any letter case, with each letter outside a bracket expression spelt out
 * (`mon` → `[mM][oO][nN]`): a JSON Schema pattern has no flags, so a regex's `i` cannot reach the OpenAPI document
 * (it showed there as a literal `/i` no client could match). Only for sources whose letters are all outside `[...]`
 * and escapes other than `\d`, `\s`, `\w` and punctuation.
 */
export function anyCasePattern(source: string): RegExp {
  return new RegExp(
    source.replace(/(\\.)|[a-zA-Z]/g, (m, esc: string | undefined) =>
      esc ? m : `[${m.toLowerCase()}${m.toUpperCase()}]`,
    ),
  );
}
