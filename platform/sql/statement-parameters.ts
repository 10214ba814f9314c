import { InvalidInputError } from '../errors';
import type { StatementParameter } from '../types';
import { isPunct, tokenize } from './tokenizer';

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** The parameter types of Databricks' Statement Execution API that both adapters bind. */
const TYPE =
  /^(STRING|INT|INTEGER|BIGINT|SMALLINT|TINYINT|DOUBLE|FLOAT|BOOLEAN|DATE|TIMESTAMP|TIMESTAMP_NTZ|DECIMAL(\(\s*\d{1,2}\s*(,\s*\d{1,2}\s*)?\))?)$/i;

export interface BoundStatement {
  /** The SQL with each `:name` marker written by `marker`. */
  sql: string;
  /** The parameters used, with their values as text (null for NULL). */
  parameters: { name: string; value: string | null; type: string | null }[];
}

/**
 * Finds the `:name` markers of the given parameters (outside strings, comments and quoted names; `::` casts and
 * `col:field` paths of other names are left alone) and writes each with `marker`, so the values are bound by
 * the engine and never become SQL text. Bad names, unknown types and duplicates are InvalidInputError.
 */
export function bindStatementParameters(
  sql: string,
  parameters: StatementParameter[],
  marker: (name: string, type: string | null) => string,
): BoundStatement {
  const byName = new Map<string, StatementParameter>();
  parameters.forEach((p, i) => {
    if (!NAME.test(p.name ?? ''))
      throw new InvalidInputError(`parameters[${i}].name must be a SQL name, got ${JSON.stringify(p.name)}`);
    if (p.type !== undefined && !TYPE.test(p.type.trim()))
      throw new InvalidInputError(`parameters[${i}].type ${JSON.stringify(p.type)} is not a supported type`);
    const key = p.name.toLowerCase();
    if (byName.has(key)) throw new InvalidInputError(`parameters[${i}].name ${p.name} is given twice`);
    byName.set(key, p);
  });
  const used = new Map<string, BoundStatement['parameters'][number]>();
  const tokens = tokenize(sql);
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1];
    const p = isPunct(t, ':') && next?.type === 'ident' ? byName.get(next.value.toLowerCase()) : undefined;
    if (!p) {
      out += t.text;
      continue;
    }
    const type = p.type ? p.type.trim().toUpperCase() : null;
    const name = p.name.toLowerCase();
    used.set(name, { name, value: p.value ?? null, type });
    out += marker(name, type && type !== 'STRING' ? type : null);
    i++;
  }
  return { sql: out, parameters: [...used.values()] };
}
