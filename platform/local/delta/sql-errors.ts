import { InvalidInputError } from '../../errors';

/**
 * DuckDB errors caused by the caller's SQL (parser, binder, conversion, constraint) become
 * InvalidInputError; I/O and internal errors pass through unchanged.
 */
export async function asInputError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    // Not `instanceof Error`: errors from the native addon may come from another realm (e.g. under jest).
    const message = (err as { message?: unknown } | null)?.message;
    const msg = typeof message === 'string' ? message : String(err);
    if (/^(Parser|Binder|Conversion|Catalog|Invalid Input|Constraint|Out of Range|Not implemented) Error/i.test(msg)) {
      throw new InvalidInputError(`invalid SQL: ${msg}`, { cause: err });
    }
    throw err;
  }
}
