import { InvalidInputError } from '../../platform/errors';
import { assertReadOnly, emitToken } from '../../platform/local/sql/dialect';
import { tokenize } from '../../platform/sql/tokenizer';
import { databricksToDuck, duckToDatabricks } from '../../platform/local/sql/types';

const translate = (sql: string) => tokenize(sql).map(emitToken).join('');

describe('Databricks SQL tokenizer and dialect', () => {
  it('keeps string literals and dotted names intact while converting quoting', () => {
    expect(translate("SELECT `my col`, \"it's\", 'preprod.x' FROM preprod.x -- preprod.y")).toBe(
      "SELECT \"my col\", 'it''s', 'preprod.x' FROM preprod.x -- preprod.y",
    );
  });

  it('decodes backslash escapes in Databricks strings', () => {
    const [t] = tokenize("'a\\'b\\n'");
    expect(t).toMatchObject({ type: 'string', value: "a'b\n" });
  });

  it('turns Databricks-only operators and literal suffixes into DuckDB spelling', () => {
    expect(translate('a == 1 AND b <=> NULL AND c = 10L')).toBe(
      'a = 1 AND b IS NOT DISTINCT FROM NULL AND c = CAST(10 AS BIGINT)',
    );
  });

  it('reads names that start with a digit as identifiers', () => {
    expect(tokenize('2024_sales').map((t) => t.type)).toEqual(['ident']);
  });

  it('rejects writes, multiple statements and unterminated literals', () => {
    expect(() => assertReadOnly(tokenize('DELETE FROM t'), 'query')).toThrow(InvalidInputError);
    expect(() => assertReadOnly(tokenize('WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x'), 'query')).toThrow(
      /INSERT/,
    );
    expect(() => assertReadOnly(tokenize('SELECT 1; DROP TABLE t'), 'query')).toThrow(/one SQL statement/);
    expect(() => tokenize("SELECT 'open")).toThrow(InvalidInputError);
    expect(assertReadOnly(tokenize("SELECT 'delete me' AS `update`;"), 'query').length).toBeGreaterThan(0);
  });

  it('refuses DuckDB functions and path scans that would read local files', () => {
    expect(() => assertReadOnly(tokenize("SELECT * FROM read_csv('/etc/passwd')"), 'query')).toThrow(
      /read_csv is not available/,
    );
    expect(() => assertReadOnly(tokenize("SELECT * FROM '/etc/passwd'"), 'query')).toThrow(/by path/);
    expect(() => assertReadOnly(tokenize("SELECT getenv('HOME')"), 'expression')).toThrow(InvalidInputError);
  });

  it('maps Databricks types to DuckDB and back', () => {
    expect(databricksToDuck('array<struct<a:int,b:decimal(10,2)>>')).toBe('STRUCT("a" INTEGER, "b" DECIMAL(10,2))[]');
    expect(databricksToDuck('map<string,bigint>')).toBe('MAP(VARCHAR, BIGINT)');
    expect(duckToDatabricks('STRUCT("a" INTEGER, "b" VARCHAR[])')).toBe('struct<a:int,b:array<string>>');
    expect(duckToDatabricks('TIMESTAMP WITH TIME ZONE')).toBe('timestamp');
    expect(() => databricksToDuck('widget')).toThrow(InvalidInputError);
  });
});
