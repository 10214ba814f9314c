import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface Check {
  name: string;
  check: { function: string; arguments: Record<string, unknown> };
  filter?: string;
}
interface Parsed {
  checks: Check[];
  explanation: string;
  confidence: number;
  saved_check_ids?: string[];
}

const checkLine = (c: Check) =>
  `  ${c.check.function} ${JSON.stringify(c.check.arguments)}${c.filter ? ` filter ${c.filter}` : ''}`;

/** `lakeward nl-rule parse|batch|explain` over /api/nl-rules (plain-English rules to DQX checks, no model). */
export function registerNlRuleCommands(program: Command): void {
  const nl = program.command('nl-rule').description('Plain-English data-quality rules to DQX checks (no model)');
  withApiOptions(
    nl
      .command('parse <table_fqn> <text...>')
      .description('one rule; exits 1 when it does not parse')
      .option('--save', "store the checks as the table's DQ checks"),
  ).action(async (table: string, words: string[], opts: ApiOptions & { save?: boolean }) => {
    const out = await apiClient(opts).post<Parsed>('/api/nl-rules/from-natural-language', {
      text: words.join(' '),
      table_fqn: table,
      save: Boolean(opts.save),
    });
    print(opts, out, (o) =>
      [
        o.explanation,
        ...o.checks.map(checkLine),
        ...(o.saved_check_ids ? [`saved: ${o.saved_check_ids.join(', ')}`] : []),
      ].join('\n'),
    );
  });
  withApiOptions(
    nl.command('batch <table_fqn> <file>').description('one rule per line (at most 100); exits 1 when any fails'),
  ).action(async (table: string, file: string, opts: ApiOptions) => {
    const rules = readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const out = await apiClient(opts).post<{
      parsed: number;
      failed: number;
      results: { text: string; ok: boolean; checks?: Check[]; error?: string }[];
    }>('/api/nl-rules/batch-parse', { table_fqn: table, rules });
    print(opts, out, (o) =>
      [
        ...o.results.map((r) =>
          r.ok ? `ok    ${r.text}\n${r.checks!.map(checkLine).join('\n')}` : `FAIL  ${r.text}: ${r.error}`,
        ),
        `${o.parsed} parsed, ${o.failed} failed`,
      ].join('\n'),
    );
    if (out.failed) process.exitCode = 1;
  });
  withApiOptions(nl.command('explain <check_json>').description('a DQX check (JSON) as one sentence')).action(
    async (json: string, opts: ApiOptions) => {
      const out = await apiClient(opts).post<{ explanation: string }>('/api/nl-rules/explain', {
        rule: JSON.parse(json) as unknown,
      });
      print(opts, out, (o) => o.explanation);
    },
  );
}
