import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allCases, HOSTILE_TEXT, QUOTES, SPACEDOT, TICK, T_SQL, HOSTILE_LIT } from './golden-cases';
import { SQLGLOT_EXCEPTIONS } from './sqlglot-exceptions';

interface Parsed {
  name: string;
  status: 'structured' | 'command' | 'error';
  tokenized: boolean;
  error?: string;
  identifiers: string[];
  strings: string[];
}

/** Runs every golden statement through sqlglot's Databricks dialect in one Python process. */
function parseAll(): Parsed[] {
  const dir = mkdtempSync(join(tmpdir(), 'lakeward-sqlglot-'));
  try {
    const file = join(dir, 'statements.json');
    writeFileSync(file, JSON.stringify(allCases.map((c) => ({ name: c.name, sql: c.build() }))));
    const out = execFileSync(join(__dirname, '../../.venv/bin/python'), [join(__dirname, 'sqlglot-check.py'), file], {
      encoding: 'utf8',
    });
    return JSON.parse(out) as Parsed[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('golden Databricks statements against sqlglot (dialect databricks)', () => {
  const results = parseAll();
  const byName = new Map(results.map((r) => [r.name, r]));

  it('tokenises every statement (quoting and escaping are balanced)', () => {
    expect(results.filter((r) => !r.tokenized).map((r) => `${r.name}: ${r.error}`)).toEqual([]);
  });

  it('parses every statement into a syntax tree except the listed exceptions', () => {
    const unexpected = results
      .filter((r) => r.status !== 'structured' && SQLGLOT_EXCEPTIONS[r.name]?.status !== r.status)
      .map((r) => `${r.name} → ${r.status} ${r.error ?? ''}`);
    expect(unexpected).toEqual([]);
  });

  it('lists only exceptions that exist and still need to be exceptions', () => {
    const stale = Object.keys(SQLGLOT_EXCEPTIONS).filter((n) => byName.get(n)?.status !== SQLGLOT_EXCEPTIONS[n].status);
    expect(stale).toEqual([]);
    expect(results.filter((r) => r.status === 'structured').length).toBeGreaterThan(40);
  });

  it('reads hostile identifiers back exactly as they were named', () => {
    const withT = allCases.filter((c) => c.expected.includes(T_SQL)).map((c) => byName.get(c.name)!);
    const structured = withT.filter((r) => r.status === 'structured');
    expect(structured.length).toBeGreaterThan(10);
    for (const r of structured)
      expect({ name: r.name, ids: r.identifiers }).toEqual({
        name: r.name,
        ids: expect.arrayContaining([TICK, SPACEDOT, QUOTES]),
      });
  });

  it('reads hostile literals back exactly as they were written', () => {
    const withLit = allCases.filter((c) => c.expected.includes(HOSTILE_LIT)).map((c) => byName.get(c.name)!);
    const structured = withLit.filter((r) => r.status === 'structured');
    expect(structured.length).toBeGreaterThan(3);
    for (const r of structured)
      expect({ name: r.name, s: r.strings }).toEqual({ name: r.name, s: expect.arrayContaining([HOSTILE_TEXT]) });
  });
});
