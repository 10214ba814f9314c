import { ident, lit } from '../../data-quality/logic/sql-text';
import { exactColumn, nearestColumns } from './columns';
import { LexError, tokenize, type Token } from './lexer';
import { isNumberWord, numeral, wordsValue } from './numbers';

/**
 * Plain-English rules to DQX checks, with no model: a fixed grammar over the tokens (clauses joined by `and`, an
 * optional `when <column> is <value>` filter). Columns must match exactly. Pure.
 */
export interface DqxCheck {
  name: string;
  criticality: 'error' | 'warn';
  check: { function: string; arguments: Record<string, unknown> };
  filter?: string;
}

export type ParseOutcome =
  | { ok: true; checks: DqxCheck[] }
  | { ok: false; reason: 'unparseable'; message: string }
  | { ok: false; reason: 'column'; message: string; column: string; nearest: string[] };

class Stop extends Error {
  constructor(readonly outcome: Exclude<ParseOutcome, { ok: true }>) {
    super(outcome.message);
  }
}

const MODALS = [
  ['must'],
  ['should'],
  ['shall'],
  ['will'],
  ['has', 'to'],
  ['have', 'to'],
  ['needs', 'to'],
  ['is'],
  ['are'],
];
const FILTER_WORDS = ['when', 'where', 'if', 'for'];
const UNIT_MINUTES: Record<string, number> = { minute: 1, minutes: 1, hour: 60, hours: 60, day: 1440, days: 1440 };

class Parser {
  private i = 0;
  constructor(
    private readonly t: Token[],
    private readonly columns: string[],
  ) {}

  private peek(k = 0): Token | undefined {
    return this.t[this.i + k];
  }
  private at(...words: string[]): boolean {
    return words.every((w, k) => this.peek(k)?.lower === w);
  }
  private accept(...words: string[]): boolean {
    if (!this.at(...words)) return false;
    this.i += words.length;
    return true;
  }
  /** Accepts the first of these word sequences that is next (if any). */
  private acceptOne(...alternatives: string[][]): boolean {
    return alternatives.some((a) => this.accept(...a));
  }
  private fail(message: string): never {
    throw new Stop({ ok: false, reason: 'unparseable', message });
  }
  private expect(...words: string[]): void {
    if (!this.accept(...words)) this.fail(`expected "${words.join(' ')}" ${this.where()}`);
  }
  private where(): string {
    const tok = this.peek();
    return tok ? `at "${tok.text}"` : 'at the end';
  }

  rule(): DqxCheck[] {
    if (!this.t.length) this.fail('the rule is empty');
    const checks = [this.clause()];
    while (this.accept('and')) checks.push(this.clause());
    let filter: string | undefined;
    if (FILTER_WORDS.some((w) => this.at(w))) {
      this.i++;
      const column = this.column();
      if (!(this.accept('is') || this.accept('=') || this.accept('==') || this.accept('equals')))
        this.fail(`expected "is" ${this.where()}`);
      const v = this.value();
      filter = `${ident(column)} = ${typeof v === 'number' ? String(v) : lit(v)}`;
    }
    if (this.peek()) this.fail(`unexpected "${this.peek()!.text}"`);
    return filter ? checks.map((c) => ({ ...c, filter })) : checks;
  }

  private column(): string {
    const tok = this.peek();
    if (!tok || !(tok.kind === 'word' || tok.kind === 'ident')) this.fail(`expected a column name ${this.where()}`);
    this.i++;
    const found = exactColumn(tok.text, this.columns);
    if (!found)
      throw new Stop({
        ok: false,
        reason: 'column',
        column: tok.text,
        nearest: nearestColumns(tok.text, this.columns),
        message: `the table has no column ${tok.text}`,
      });
    return found;
  }

  number(): number {
    const tok = this.peek();
    if (tok?.kind === 'number') {
      this.i++;
      let n = numeral(tok.text)!;
      const scale: string[] = [];
      while (this.peek() && ['hundred', 'thousand', 'million', 'billion'].includes(this.peek()!.lower))
        scale.push(this.t[this.i++].lower);
      if (scale.length) n = wordsValue(scale, n)!;
      return n;
    }
    const words: string[] = [];
    while (this.peek()?.kind === 'word' && isNumberWord(this.peek()!.lower)) words.push(this.t[this.i++].lower);
    const v = wordsValue(words);
    if (v === null) this.fail(`expected a number ${this.where()}`);
    return v;
  }

  private value(): string | number {
    const tok = this.peek();
    if (!tok) this.fail('expected a value at the end');
    if (tok.kind === 'string' || tok.kind === 'ident') return (this.i++, tok.text);
    if (tok.kind === 'number' || isNumberWord(tok.lower)) return this.number();
    if (tok.kind === 'word') return (this.i++, tok.text);
    return this.fail(`expected a value ${this.where()}`);
  }

  private rowsClause(): DqxCheck {
    if (!this.acceptOne(['at', 'least'], ['no', 'fewer', 'than'])) this.expect('at', 'least');
    const n = this.number();
    if (!(this.accept('rows') || this.accept('row') || this.accept('records')))
      this.fail(`expected "rows" ${this.where()}`);
    return check('row_count', 'is_aggr_not_less_than', { column: '*', aggr_type: 'count', limit: n });
  }

  private clause(): DqxCheck {
    // Table level: "[the] table must have at least N rows", "at least N rows".
    if (this.at('at', 'least') || this.at('no', 'fewer')) return this.rowsClause();
    const start = this.i;
    this.accept('the');
    if (this.accept('table')) {
      this.modal();
      if (!(this.accept('have') || this.accept('has') || this.accept('contain') || this.accept('contains')))
        this.fail(`expected "have" ${this.where()}`);
      return this.rowsClause();
    }
    this.i = start;
    this.accept('the');
    const column = this.column();
    this.accept('column');
    return this.predicate(column);
  }

  /** Consumes a modal ("must", "should", "has to", …) and answers whether it was negated ("must not", "cannot"). */
  private modal(): boolean {
    if (this.accept('cannot') || this.accept("can't") || this.accept('can', 'not')) return true;
    for (const m of MODALS) if (this.accept(...m)) break;
    return this.accept('not') || this.accept('never');
  }

  private predicate(column: string): DqxCheck {
    const negated = this.modal();
    this.acceptOne(['be'], ['contain'], ['have']);
    const not = (fn: string) => check(column, fn, fn === 'is_unique' ? { columns: [column] } : { column });
    if (negated) {
      if (this.accept('null') || this.accept('missing') || this.accept('empty') || this.accept('blank'))
        return not('is_not_null');
      if (this.accept('duplicated') || this.accept('duplicate') || this.accept('duplicates')) return not('is_unique');
      if (this.accept('less', 'than') || this.accept('below') || this.accept('lower', 'than'))
        return check(column, 'is_not_less_than', { column, limit: this.number() });
      if (
        this.accept('more', 'than') ||
        this.accept('above') ||
        this.accept('greater', 'than') ||
        this.accept('higher', 'than') ||
        this.accept('exceed')
      )
        return check(column, 'is_not_greater_than', { column, limit: this.number() });
      return this.fail(`cannot read the negated condition ${this.where()}`);
    }
    if (
      this.accept('required') ||
      this.accept('mandatory') ||
      this.accept('present') ||
      this.accept('populated') ||
      this.accept('not', 'null') ||
      this.accept('non', 'null')
    )
      return not('is_not_null');
    if (this.accept('unique') || this.accept('distinct') || this.accept('no', 'duplicates')) return not('is_unique');
    if (this.accept('between') || this.accept('in', 'the', 'range') || this.accept('within')) {
      const min = this.number();
      if (!(this.accept('and') || this.accept('to') || this.accept('-'))) this.fail(`expected "and" ${this.where()}`);
      return check(column, 'is_in_range', { column, min_limit: min, max_limit: this.number() });
    }
    if (
      this.accept('at', 'least') ||
      this.accept('no', 'less', 'than') ||
      this.accept('>=') ||
      this.accept('greater', 'than', 'or', 'equal', 'to') ||
      this.accept('minimum')
    )
      return check(column, 'is_not_less_than', { column, limit: this.number() });
    if (
      this.accept('at', 'most') ||
      this.accept('no', 'more', 'than') ||
      this.accept('<=') ||
      this.accept('less', 'than', 'or', 'equal', 'to') ||
      this.accept('maximum')
    )
      return check(column, 'is_not_greater_than', { column, limit: this.number() });
    if (this.accept('one', 'of') || this.accept('in') || this.accept('any', 'of'))
      return check(column, 'is_in_list', { column, allowed: this.list() });
    if (
      this.accept('a', 'valid', 'email') ||
      this.accept('valid', 'email') ||
      this.accept('an', 'email') ||
      this.accept('email')
    ) {
      this.accept('address');
      return not('is_valid_email');
    }
    if (this.accept('match') || this.accept('matches') || this.accept('matching')) {
      this.accept('the');
      this.acceptOne(['regex'], ['regular', 'expression'], ['pattern']);
      const tok = this.peek();
      if (tok?.kind !== 'string') this.fail(`expected the pattern in quotes ${this.where()}`);
      this.i++;
      return check(column, 'regex_match', { column, regex: tok.text });
    }
    if (this.accept('updated') || this.accept('refreshed') || this.accept('loaded')) {
      this.expect('within');
      this.acceptOne(['the', 'last'], ['the', 'past'], ['last']);
      const n = this.number();
      const unit = this.peek()?.lower ?? '';
      if (!(unit in UNIT_MINUTES)) this.fail(`expected hours, minutes or days ${this.where()}`);
      this.i++;
      return check(column, 'is_data_fresh', { column, max_age_minutes: Math.round(n * UNIT_MINUTES[unit]) });
    }
    return this.fail(`cannot read the condition on ${column} ${this.where()}`);
  }

  private list(): (string | number)[] {
    const open = this.accept('(');
    const out = [this.value()];
    while (this.accept(',') || this.accept('or')) {
      this.accept('or');
      out.push(this.value());
    }
    if (open) this.expect(')');
    return out;
  }
}

function check(subject: string, fn: string, args: Record<string, unknown>): DqxCheck {
  return {
    name: `${subject === '*' ? 'row_count' : subject}_${fn}`,
    criticality: 'error',
    check: { function: fn, arguments: args },
  };
}

/** Parses `text` against a table's columns. */
export function parseRule(text: string, columns: string[]): ParseOutcome {
  try {
    return { ok: true, checks: new Parser(tokenize(text), columns).rule() };
  } catch (err) {
    if (err instanceof Stop) return err.outcome;
    if (err instanceof LexError) return { ok: false, reason: 'unparseable', message: err.message };
    throw err;
  }
}
