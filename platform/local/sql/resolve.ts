import { InvalidInputError, NotFoundError } from '../../errors';
import type { TableRef, TimeTravel } from '../../types';
import { duckIdent, duckString } from '../duck';
import { assertReadOnly, emitToken, FUNCTION_RENAMES, NILADIC } from './dialect';
import { NOT_ALIAS, parseTimeTravel } from './table-reference';
import { isName, isPunct, isWord, significant, tokenize, type Token } from '../../sql/tokenizer';

/**
 * Databricks SQL → DuckDB SQL over one local workspace: three-part names become Delta scans, view bodies
 * (resolved recursively), information_schema listings or function macros. The host answers lookups; the
 * resolver collects the macros the statement needs (`macros`, in dependency order).
 */
export interface ResolverHost {
  readonly user: string;
  readonly groups: readonly string[];
  catalogExists(name: string): Promise<boolean>;
  /** Governed relation SQL (table scan with filters/masks, or view), or null when no such table/view. */
  relationSql(ref: TableRef, at: TimeTravel | undefined, r: Resolver): Promise<string | null>;
  /** Registers the macro for a SQL function and returns its name, or null when no such function. */
  functionMacro(ref: TableRef, r: Resolver): Promise<string | null>;
  informationSchemaSql(catalog: string | null, view: string): Promise<string>;
  changesSql(ref: TableRef, start: number, end: number | undefined): Promise<string>;
}

const MAX_DEPTH = 16;
export class Resolver {
  /** macro name → CREATE statement, in dependency order. */
  readonly macros = new Map<string, string>();
  private readonly catalogs = new Map<string, boolean>();

  constructor(
    readonly host: ResolverHost,
    readonly depth = 0,
    private readonly parent?: Resolver,
  ) {
    if (depth > MAX_DEPTH) throw new InvalidInputError('views or functions nest too deeply (is there a cycle?)');
  }

  /** A resolver for a nested body (view definition, function body) sharing this one's macro list. */
  child(): Resolver {
    return new Resolver(this.host, this.depth + 1, this.root());
  }
  private root(): Resolver {
    return this.parent ?? this;
  }
  addMacro(name: string, createSql: string): void {
    this.root().macros.set(name, createSql);
  }

  async resolveQuery(sql: string): Promise<string> {
    return this.rewrite(assertReadOnly(tokenize(sql), 'query'));
  }
  async resolveExpression(sql: string): Promise<string> {
    return this.rewrite(assertReadOnly(tokenize(sql), 'expression'));
  }

  private async isCatalog(name: string): Promise<boolean> {
    const key = name.toLowerCase();
    if (!this.catalogs.has(key)) this.catalogs.set(key, await this.host.catalogExists(key));
    return this.catalogs.get(key)!;
  }

  private async rewrite(tokens: Token[]): Promise<string> {
    const sig: number[] = [];
    tokens.forEach((t, i) => significant(t) && sig.push(i));
    const at = (k: number): Token | undefined => tokens[sig[k]];
    const out: string[] = [];
    let emittedUpTo = 0; // index into tokens
    const flushTo = (tokIdx: number) => {
      for (; emittedUpTo < tokIdx; emittedUpTo++) out.push(emitToken(tokens[emittedUpTo]));
    };
    const skipTo = (tokIdx: number) => (emittedUpTo = tokIdx);

    // Databricks concat() is NULL when any argument is; DuckDB's skips NULLs, so calls become `a || b`.
    let depth = 0;
    const concatDepths: number[] = [];
    for (let k = 0; k < sig.length; k++) {
      const t = at(k)!;
      if (t.type === 'punct') {
        if (t.text === '(') depth++;
        if (t.text === ')' && concatDepths[concatDepths.length - 1] === depth--) concatDepths.pop();
        if (t.text === ',' && concatDepths[concatDepths.length - 1] === depth) {
          flushTo(sig[k]);
          out.push(' ||');
          skipTo(sig[k] + 1);
        }
        continue;
      }
      if (isWord(t, 'CONCAT') && isPunct(at(k + 1), '(') && !isPunct(at(k - 1), '.')) {
        flushTo(sig[k]);
        skipTo(sig[k] + 1);
        concatDepths.push(depth + 1);
        continue;
      }
      if (!isName(t) || isPunct(at(k - 1), '.')) continue;
      const three = isPunct(at(k + 1), '.') && isName(at(k + 2)) && isPunct(at(k + 3), '.') && isName(at(k + 4));
      if (three && !isPunct(at(k + 5), '.')) {
        const parts = [t.value, at(k + 2)!.value, at(k + 4)!.value].map((p) => p.toLowerCase());
        const [catalog, schema, rawName] = parts;
        const isFunctionCall = isPunct(at(k + 5), '(');
        const isInfoSchema =
          schema === 'information_schema' && (catalog === 'system' || (await this.isCatalog(catalog)));
        if (!isInfoSchema && !(await this.isCatalog(catalog))) {
          // After FROM / JOIN it can only be a table: say which catalog is missing rather than a DuckDB error.
          if (isWord(at(k - 1), 'FROM') || isWord(at(k - 1), 'JOIN'))
            throw new NotFoundError(`catalog ${catalog} not found`);
          continue;
        }
        flushTo(sig[k]);
        if (isFunctionCall) {
          const macro = await this.host.functionMacro({ catalog, schema, name: rawName }, this);
          if (!macro) throw new NotFoundError(`function ${parts.join('.')} not found`);
          out.push(duckIdent(macro));
          skipTo(sig[k + 4] + 1);
          k += 4;
          continue;
        }
        const { name, travel, next } = parseTimeTravel(rawName, at, k + 5);
        const ref = { catalog, schema, name };
        const sql = isInfoSchema
          ? await this.host.informationSchemaSql(catalog === 'system' ? null : catalog, name)
          : await this.host.relationSql(ref, travel, this);
        if (sql === null) throw new NotFoundError(`table or view ${catalog}.${schema}.${name} not found`);
        const following = at(next);
        const hasAlias =
          isWord(following, 'AS') ||
          following?.type === 'qident' ||
          (following?.type === 'ident' && !NOT_ALIAS.has(following.value.toUpperCase()));
        out.push(`${sql}${hasAlias ? '' : ` AS ${duckIdent(name)}`}`);
        skipTo(sig[next - 1] + 1);
        k = next - 1;
        continue;
      }
      if (t.type !== 'ident' || !isPunct(at(k + 1), '(')) continue;
      const fn = t.value.toLowerCase();
      if (['current_user', 'session_user', 'user'].includes(fn) && isPunct(at(k + 2), ')')) {
        flushTo(sig[k]);
        out.push(duckString(this.host.user));
        skipTo(sig[k + 2] + 1);
        k += 2;
      } else if (NILADIC.has(fn) && isPunct(at(k + 2), ')')) {
        flushTo(sig[k]);
        out.push(fn);
        skipTo(sig[k + 2] + 1);
        k += 2;
      } else if (fn === 'is_account_group_member' || fn === 'is_member') {
        flushTo(sig[k]);
        const groups = this.host.groups.map(duckString).join(', ');
        out.push(`list_contains(CAST([${groups}] AS VARCHAR[]), `);
        skipTo(sig[k + 1] + 1);
        k += 1;
        depth++;
      } else if (fn === 'table_changes') {
        k = await this.tableChanges(tokens, sig, k, out, flushTo, skipTo);
      } else if (FUNCTION_RENAMES[fn]) {
        flushTo(sig[k]);
        out.push(FUNCTION_RENAMES[fn]);
        skipTo(sig[k] + 1);
      }
    }
    flushTo(tokens.length);
    return out.join('');
  }

  /** `table_changes('cat.sch.t', start[, end])` → the change data feed scan. Returns the last consumed index. */
  private async tableChanges(
    tokens: Token[],
    sig: number[],
    k: number,
    out: string[],
    flushTo: (i: number) => void,
    skipTo: (i: number) => void,
  ): Promise<number> {
    const at = (j: number) => tokens[sig[j]];
    const name = at(k + 2);
    const start = at(k + 4);
    const hasEnd = isPunct(at(k + 5), ',');
    const end = hasEnd ? at(k + 6) : undefined;
    const close = hasEnd ? k + 7 : k + 5;
    if (
      name?.type !== 'string' ||
      start?.type !== 'number' ||
      (hasEnd && end?.type !== 'number') ||
      !isPunct(at(close), ')')
    ) {
      throw new InvalidInputError("table_changes needs ('catalog.schema.table', startVersion[, endVersion])");
    }
    const parts = name.value.split('.').map((p) => p.replace(/^`|`$/g, '').toLowerCase());
    if (parts.length !== 3) throw new InvalidInputError(`table_changes needs a three-part name, got ${name.value}`);
    flushTo(sig[k]);
    const sql = await this.host.changesSql(
      { catalog: parts[0], schema: parts[1], name: parts[2] },
      Number(start.text),
      end ? Number(end.text) : undefined,
    );
    out.push(sql);
    skipTo(sig[close] + 1);
    return close;
  }
}
