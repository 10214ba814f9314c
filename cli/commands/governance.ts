import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

const G = '/api/governance/glossary';

interface Term {
  term_id: string;
  name: string;
  abbreviation: string | null;
  definition: string;
  domain: string;
  status: string;
  linked_columns: string[];
  history?: { change_type: string; changed_by: string; changed_at: string }[];
}
interface Policy {
  name: string;
  principals: string[];
  allowed_sources: string[];
  allowed_destinations: string[];
  allowed_schemas: string[];
  allowed_operations: string[];
  deny: boolean;
}

/** One line per term: id, status, name (abbreviation), domain, linked column count. */
export function termLines(terms: Term[]): string {
  if (terms.length === 0) return 'no terms';
  const width = Math.max(...terms.map((t) => t.name.length + (t.abbreviation ? t.abbreviation.length + 3 : 0)));
  return terms
    .map((t) => {
      const name = t.abbreviation ? `${t.name} (${t.abbreviation})` : t.name;
      return `${t.term_id}  ${t.status.padEnd(10)}  ${name.padEnd(width)}  ${t.domain}  ${t.linked_columns.length} columns`;
    })
    .join('\n');
}

function termDetail(t: Term): string {
  const lines = [`${t.name}${t.abbreviation ? ` (${t.abbreviation})` : ''}  [${t.status}]  ${t.domain}`, t.definition];
  if (t.linked_columns.length) lines.push(`columns: ${t.linked_columns.join(', ')}`);
  for (const h of t.history ?? []) lines.push(`  ${h.changed_at}  ${h.change_type.padEnd(10)}  ${h.changed_by}`);
  return lines.join('\n');
}

/**
 * `lakeward glossary list|show|add|edit|approve|deprecate|link|rm` and `lakeward policies list|add|rm`: the
 * business glossary and the access policies through the API (the key's role decides what is allowed).
 */
export function registerGovernanceCommands(program: Command): void {
  const glossary = program.command('glossary').description('Business glossary terms');
  withApiOptions(
    glossary
      .command('list')
      .option('--status <status>', 'draft, approved or deprecated')
      .option('--domain <domain>')
      .option('--search <text>'),
  ).action(async (opts: ApiOptions & { status?: string; domain?: string; search?: string }) => {
    const params = new URLSearchParams();
    if (opts.status) params.set('status', opts.status);
    if (opts.domain) params.set('domain', opts.domain);
    if (opts.search) params.set('q', opts.search);
    const query = params.size ? `?${params}` : '';
    print(opts, await apiClient(opts).get<Term[]>(`${G}${query}`), termLines);
  });
  withApiOptions(glossary.command('show').argument('<term_id>')).action(async (id: string, opts: ApiOptions) => {
    print(opts, await apiClient(opts).get<Term>(`${G}/${encodeURIComponent(id)}`), termDetail);
  });
  withApiOptions(
    glossary
      .command('add')
      .argument('<name>')
      .argument('<definition>')
      .option('--abbreviation <abbr>')
      .option('--domain <domain>')
      .option('--owner <owner>')
      .option('--tags <tags>', 'comma-separated'),
  ).action(async (name: string, definition: string, opts: ApiOptions & Record<string, string | undefined>) => {
    const body = {
      name,
      definition,
      ...(opts.abbreviation ? { abbreviation: opts.abbreviation } : {}),
      ...(opts.domain ? { domain: opts.domain } : {}),
      ...(opts.owner ? { owner: opts.owner } : {}),
      ...(opts.tags ? { tags: opts.tags.split(',').map((t) => t.trim()) } : {}),
    };
    print(opts, await apiClient(opts).post<Term>(G, body), (t) => `created ${t.term_id}  ${t.name}  [${t.status}]`);
  });
  withApiOptions(
    glossary.command('edit').argument('<term_id>').option('--name <name>').option('--definition <text>'),
  ).action(async (id: string, opts: ApiOptions & { name?: string; definition?: string }) => {
    const body = {
      ...(opts.name ? { name: opts.name } : {}),
      ...(opts.definition ? { definition: opts.definition } : {}),
    };
    print(opts, await apiClient(opts).request<Term>('PATCH', `${G}/${encodeURIComponent(id)}`, body), termDetail);
  });
  for (const action of ['approve', 'deprecate'] as const)
    withApiOptions(glossary.command(action).argument('<term_id>')).action(async (id: string, opts: ApiOptions) => {
      const t = await apiClient(opts).post<Term>(`${G}/${encodeURIComponent(id)}/${action}`, {});
      print(opts, t, (x) => `${x.term_id}  ${x.name}  [${x.status}]`);
    });
  withApiOptions(
    glossary.command('link').argument('<term_id>').argument('<column_fqns...>', 'catalog.schema.table.column'),
  ).action(async (id: string, columns: string[], opts: ApiOptions) => {
    const t = await apiClient(opts).post<Term>(`${G}/${encodeURIComponent(id)}/links`, { column_fqns: columns });
    print(opts, t, termDetail);
  });
  withApiOptions(glossary.command('rm').argument('<term_id>')).action(async (id: string, opts: ApiOptions) => {
    print(
      opts,
      await apiClient(opts).request<{ term_id: string }>('DELETE', `${G}/${encodeURIComponent(id)}`),
      (r) => `deleted ${r.term_id}`,
    );
  });

  const policies = program.command('policies').description('Access policies (deny first)');
  withApiOptions(policies.command('list')).action(async (opts: ApiOptions) => {
    print(opts, await apiClient(opts).get<Policy[]>('/api/rbac/policies'), (ps) =>
      ps.length === 0
        ? 'no policies (nothing is limited)'
        : ps
            .map(
              (p) =>
                `${p.deny ? 'DENY ' : 'allow'}  ${p.name}  to ${p.principals.join(',')}  ops ${p.allowed_operations.join(',')}  ` +
                `sources ${p.allowed_sources.join(',')}  destinations ${p.allowed_destinations.join(',')}  schemas ${p.allowed_schemas.join(',')}`,
            )
            .join('\n'),
    );
  });
  withApiOptions(
    policies
      .command('add')
      .argument('<name>')
      .requiredOption('--principals <list>', 'key names or roles, comma-separated (* = everyone)')
      .option('--sources <patterns>', 'source catalogs, comma-separated', '*')
      .option('--destinations <patterns>', 'destination catalogs, comma-separated', '*')
      .option('--schemas <patterns>', 'schemas, comma-separated', '*')
      .option('--operations <ops>', 'clone, sync, read, write, validate or *', '*')
      .option('--deny', 'a deny rule'),
  ).action(async (name: string, opts: ApiOptions & Record<string, string | boolean | undefined>) => {
    const list = (v: unknown) =>
      String(v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    const body = {
      name,
      principals: list(opts.principals),
      allowed_sources: list(opts.sources),
      allowed_destinations: list(opts.destinations),
      allowed_schemas: list(opts.schemas),
      allowed_operations: list(opts.operations),
      deny: Boolean(opts.deny),
    };
    print(opts, await apiClient(opts).post<Policy>('/api/rbac/policies', body), (p) => `created ${p.name}`);
  });
  withApiOptions(policies.command('rm').argument('<name>')).action(async (name: string, opts: ApiOptions) => {
    const gone = await apiClient(opts).request<Policy>('DELETE', `/api/rbac/policies/${encodeURIComponent(name)}`);
    print(opts, gone, (p) => `deleted ${p.name}`);
  });
}
