import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

const O = '/api/governance/odcs';
const OPTION_FLAGS = [
  'quality-rules',
  'lineage',
  'sla',
  'tags',
  'properties',
  'masks',
  'row-filters',
  'history',
] as const;

interface ContractDoc {
  id: string;
  name: string;
  status: string;
  version: string;
  immutable: boolean;
  versions: string[];
  attached_to: string[];
  document: Record<string, unknown>;
}
interface Section {
  passed: boolean;
  violations: { type: string; message: string }[];
}
interface Validation {
  contract_id: string;
  status: string;
  results: { table_fqn: string; status: string; drift: boolean; sections: Record<string, Section> }[];
  enforcement?: { endpoint: string; delivered: boolean; error?: string };
}

const enc = encodeURIComponent;
const docLine = (d: ContractDoc) =>
  `${d.id}  ${d.immutable ? 'published' : 'draft'}  versions: ${d.versions.join(', ') || '-'}  attached: ${d.attached_to.join(', ') || '-'}`;

/** One line per table, then one per violation, section by section. */
export function validationText(v: Validation): string {
  const lines = [`${v.contract_id}: ${v.status}`];
  for (const r of v.results) {
    lines.push(`  ${r.table_fqn}: ${r.status}${r.drift ? ' (drift)' : ''}`);
    for (const [name, s] of Object.entries(r.sections))
      for (const x of s.violations) lines.push(`    ${name}: ${x.type}: ${x.message}`);
  }
  if (v.enforcement)
    lines.push(
      `  enforcement ${v.enforcement.endpoint}: ${v.enforcement.delivered ? 'delivered' : `not delivered (${v.enforcement.error})`}`,
    );
  return lines.join('\n');
}

/**
 * `lakeward contract generate|import|show|validate|publish|attach`: ODCS data contracts through the API. `validate`
 * exits 1 when the contract fails (drift or a violation), so a pipeline step can gate on it.
 */
export function registerContractCommands(program: Command): void {
  const contract = program.command('contract').description('ODCS v3 data contracts');
  let gen = contract
    .command('generate')
    .description('Generate a draft contract from a table')
    .argument('<table_fqn>', 'catalog.schema.table')
    .option('--name <name>', 'contract name (default: the table name)')
    .option('--profiling', 'add rules from the table’s newest data-quality profile')
    .option('--no-save', 'only print the document, do not store the draft')
    .option('--out <file>', 'also write the document as YAML to this file');
  for (const f of OPTION_FLAGS) gen = gen.option(`--no-${f}`, `leave out ${f.replace('-', ' ')}`);
  withApiOptions(gen).action(async (fqn: string, opts: ApiOptions & Record<string, unknown>) => {
    const [catalog, schema, table] = fqn.split('.');
    const options: Record<string, boolean> = { include_dqx_profiling: Boolean(opts.profiling) };
    for (const f of OPTION_FLAGS) {
      const key = f.replace(/-(.)/g, (_, c: string) => c.toUpperCase());
      options[`include_${f.replace('-', '_')}`] = opts[key] !== false;
    }
    const body = { scope: 'table', catalog, schema, table, options, save: opts.save !== false, name: opts.name };
    const d = await apiClient(opts).post<ContractDoc>(`${O}/generate`, body);
    if (typeof opts.out === 'string') writeFileSync(opts.out, stringify(d.document));
    print(opts, d, (x) => `${docLine(x)}\n${stringify(x.document)}`);
  });
  withApiOptions(contract.command('import').argument('<file>', 'ODCS YAML')).action(
    async (file: string, opts: ApiOptions) => {
      const d = await apiClient(opts).post<ContractDoc>(`${O}/import`, { yaml: readFileSync(file, 'utf8') });
      print(opts, d, docLine);
    },
  );
  withApiOptions(contract.command('show').argument('<id>', 'name or name@major.minor')).action(
    async (id: string, opts: ApiOptions) => {
      print(opts, await apiClient(opts).get<ContractDoc>(`${O}/${enc(id)}`), (d) => stringify(d.document));
    },
  );
  withApiOptions(
    contract
      .command('validate')
      .argument('<id>', 'name or name@major.minor')
      .option('--table <table_fqn>', 'validate this table (default: every attached table)'),
  ).action(async (id: string, opts: ApiOptions & { table?: string }) => {
    const body = opts.table ? { table_fqn: opts.table } : {};
    const v = await apiClient(opts).post<Validation>(`${O}/validate/${enc(id)}`, body);
    print(opts, v, validationText);
    if (v.status !== 'passed') process.exitCode = 1;
  });
  withApiOptions(contract.command('publish').argument('<id>')).action(async (id: string, opts: ApiOptions) => {
    print(opts, await apiClient(opts).post<ContractDoc>(`${O}/${enc(id)}/publish`), docLine);
  });
  withApiOptions(contract.command('attach').argument('<id>').argument('<table_fqn>')).action(
    async (id: string, table: string, opts: ApiOptions) => {
      const c = await apiClient(opts).post<{ name: string; attached_to: string[] }>(`${O}/${enc(id)}/attach`, {
        table_fqn: table,
      });
      print(opts, c, (x) => `${x.name} attached to ${x.attached_to.join(', ')}`);
    },
  );
}
