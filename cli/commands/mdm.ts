import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { registerMdmCatalogCommands } from './mdm-catalog';
import { registerMdmRuleCommands } from './mdm-rules';
import { M, readDocument, table, waitForJob, type Accepted } from './mdm-shared';
import { registerMdmStewardCommands } from './mdm-steward';
import { ingestReport, matchReport } from './mdm-text';

interface ModelView {
  entity_type: string;
  model: { attributes: Record<string, { kind: string }>; blocking_rules: { name: string }[]; review_floor: number };
  updated_at: string;
}
interface SourceView {
  system: string;
  entity_type: string;
  table_fqn: string;
  key_column: string;
  columns: Record<string, string>;
  trust: number;
}
interface SyntheticView {
  entity_type: string;
  records: number;
  entities: number;
  truth_table: string;
  model: Record<string, unknown>;
  sources: SourceView[];
  examples: { duplicates: unknown[]; distinct: unknown[] };
}
const sourcesTable = (sources: SourceView[]) =>
  table(
    ['system', 'entity_type', 'table', 'key', 'trust', 'attributes'],
    sources.map((s) => [s.system, s.entity_type, s.table_fqn, s.key_column, s.trust, Object.keys(s.columns).join(',')]),
  );

/** `lakeward mdm …`: master data management through the API. */
export function registerMdmCommand(program: Command): void {
  const mdm = program
    .command('mdm')
    .description(
      'Master data management: models, sources, ingest, matching, rules, stewardship, reference data, templates, reports',
    );
  registerMdmStewardCommands(mdm);
  registerMdmRuleCommands(mdm);
  registerMdmCatalogCommands(mdm);

  withApiOptions(mdm.command('models').description('List the entity models')).action(async (opts: ApiOptions) => {
    const models = await apiClient(opts).get<ModelView[]>(`${M}/models`);
    print(opts, models, (ms) =>
      table(
        ['entity_type', 'attributes', 'blocking rules', 'review floor', 'updated'],
        ms.map((m) => [
          m.entity_type,
          Object.entries(m.model.attributes)
            .map(([a, s]) => `${a}:${s.kind}`)
            .join(' '),
          m.model.blocking_rules.map((r) => r.name).join(','),
          m.model.review_floor,
          m.updated_at,
        ]),
      ),
    );
  });

  const model = mdm.command('model').description("One entity type's model");
  withApiOptions(model.command('get').argument('<entity_type>')).action(
    async (entityType: string, opts: ApiOptions) => {
      const m = await apiClient(opts).get<ModelView>(`${M}/models/${encodeURIComponent(entityType)}`);
      print(opts, m, (v) => JSON.stringify(v.model, null, 2));
    },
  );
  withApiOptions(
    model
      .command('put')
      .argument('<entity_type>')
      .argument('<file>', 'the model as YAML or JSON (- for standard input)'),
  ).action(async (entityType: string, file: string, opts: ApiOptions) => {
    const body = readDocument(file);
    const m = await apiClient(opts).request<ModelView>('PUT', `${M}/models/${encodeURIComponent(entityType)}`, body);
    print(opts, m, (v) => `model ${v.entity_type} stored (${Object.keys(v.model.attributes).length} attributes)`);
  });

  const sources = mdm.command('sources').description('Source systems');
  withApiOptions(sources.command('list').option('--entity-type <type>')).action(
    async (o: ApiOptions & { entityType?: string }) => {
      const q = o.entityType ? `?entity_type=${encodeURIComponent(o.entityType)}` : '';
      print(o, await apiClient(o).get<SourceView[]>(`${M}/sources${q}`), sourcesTable);
    },
  );
  withApiOptions(
    sources.command('add').argument('<file>', 'a source or a list of sources, YAML or JSON (- for standard input)'),
  ).action(async (file: string, opts: ApiOptions) => {
    const doc = readDocument(file);
    const api = apiClient(opts);
    const added: SourceView[] = [];
    for (const s of Array.isArray(doc) ? doc : [doc]) added.push(await api.post<SourceView>(`${M}/sources`, s));
    print(opts, added, sourcesTable);
  });
  withApiOptions(
    sources
      .command('set')
      .argument('<system>')
      .argument('<changes>', 'JSON object of the fields to change, e.g. {"trust": 80}'),
  ).action(async (system: string, changes: string, opts: ApiOptions) => {
    const s = await apiClient(opts).request<SourceView>(
      'PATCH',
      `${M}/sources/${encodeURIComponent(system)}`,
      JSON.parse(changes),
    );
    print(opts, [s], sourcesTable);
  });
  withApiOptions(sources.command('delete').argument('<system>')).action(async (system: string, opts: ApiOptions) => {
    const r = await apiClient(opts).request<unknown>('DELETE', `${M}/sources/${encodeURIComponent(system)}`);
    print(opts, r, () => `source ${system} deleted`);
  });

  withApiOptions(
    mdm
      .command('generate')
      .description('Write synthetic people (three source tables and a truth table) into <catalog>.<schema>')
      .requiredOption('--catalog <catalog>')
      .option('--schema <schema>', 'schema of the tables', 'mdm_synthetic')
      .option('--records <n>', 'records across the three systems', '10000')
      .option('--seed <n>', 'random seed', '42')
      .option('--register', 'also store the model and register the three sources'),
  ).action(
    async (o: ApiOptions & { catalog: string; schema: string; records: string; seed: string; register?: boolean }) => {
      const api = apiClient(o);
      const body = { catalog: o.catalog, schema: o.schema, records: Number(o.records), seed: Number(o.seed) };
      const r = await api.post<SyntheticView>(`${M}/synthetic`, body);
      if (o.register) {
        await api.request('PUT', `${M}/models/${r.entity_type}`, r.model);
        for (const s of r.sources) await api.post(`${M}/sources`, s);
      }
      print(o, r, (v) =>
        [
          `${v.records} ${v.entity_type} records of ${v.entities} people written; truth in ${v.truth_table}`,
          o.register ? `model ${v.entity_type} stored and sources registered:` : 'sources to register:',
          sourcesTable(v.sources),
        ].join('\n'),
      );
    },
  );

  withApiOptions(
    mdm
      .command('ingest')
      .description("Read an entity type's sources (an mdm_ingest job)")
      .argument('<entity_type>')
      .option('--systems <list>', 'comma-separated systems (default: every source of the entity type)')
      .option('--no-wait', 'answer with the job id at once'),
  ).action(async (entityType: string, o: ApiOptions & { systems?: string; wait: boolean }) => {
    const body = { entity_type: entityType, ...(o.systems ? { systems: o.systems.split(',') } : {}) };
    const accepted = await apiClient(o).post<Accepted>(`${M}/ingest`, body);
    if (!o.wait) return print(o, accepted, (a) => `${a.job_id}: ${a.message}`);
    const job = await waitForJob(o, accepted.job_id);
    print(o, job, ingestReport);
    if (job.status !== 'completed') process.exitCode = 1;
  });

  withApiOptions(
    mdm
      .command('analyse')
      .description('Candidate pairs each blocking rule would build (nothing is compared)')
      .argument('<entity_type>'),
  ).action(async (entityType: string, opts: ApiOptions) => {
    const a = await apiClient(opts).post<{
      records: number;
      rules: { rule: string; pairs: number }[];
      total_pairs: number;
      max_candidate_pairs: number;
      over_limit: boolean;
    }>(`${M}/blocking/analyse`, { entity_type: entityType });
    print(opts, a, (v) =>
      [
        table(
          ['rule', 'pairs'],
          v.rules.map((r) => [r.rule, r.pairs]),
        ),
        `${v.total_pairs} candidate pairs from ${v.records} records (limit ${v.max_candidate_pairs})` +
          (v.over_limit ? ': OVER THE LIMIT, a run would fail' : ''),
      ].join('\n'),
    );
  });

  withApiOptions(
    mdm
      .command('match')
      .description('Match an entity type and publish its golden records (an mdm_match job)')
      .argument('<entity_type>')
      .option('--seed <n>', 'seed of the u sample', '42')
      .option('--mode <mode>', 'full or incremental (default: incremental once a run completed)')
      .option('--no-retrain', "a full run scores with the last run's model")
      .option('--no-wait', 'answer with the job id at once'),
  ).action(
    async (entityType: string, o: ApiOptions & { seed: string; wait: boolean; mode?: string; retrain: boolean }) => {
      const accepted = await apiClient(o).post<Accepted>(`${M}/match/run`, {
        entity_type: entityType,
        seed: Number(o.seed),
        ...(o.mode ? { mode: o.mode } : {}),
        retrain: o.retrain,
      });
      if (!o.wait) return print(o, accepted, (a) => `${a.job_id}: ${a.message}`);
      const job = await waitForJob(o, accepted.job_id);
      print(o, job, matchReport);
      if (job.status !== 'completed') process.exitCode = 1;
    },
  );

  withApiOptions(
    mdm
      .command('evaluate')
      .description('Pairwise and B-cubed precision, recall and F1 of the golden records against a truth table')
      .argument('<entity_type>')
      .requiredOption('--truth <table>', 'catalog.schema.table with system, record_id, entity_id'),
  ).action(async (entityType: string, o: ApiOptions & { truth: string }) => {
    const e = await apiClient(o).post<{
      records: number;
      pairwise: { precision: number; recall: number; f1: number };
      b_cubed: { precision: number; recall: number; f1: number };
    }>(`${M}/evaluate`, { entity_type: entityType, truth_table: o.truth });
    print(o, e, (v) =>
      [
        `${v.records} records`,
        table(
          ['measure', 'precision', 'recall', 'f1'],
          [
            ['pairwise', v.pairwise.precision, v.pairwise.recall, v.pairwise.f1],
            ['b-cubed', v.b_cubed.precision, v.b_cubed.recall, v.b_cubed.f1],
          ],
        ),
      ].join('\n'),
    );
  });

  withApiOptions(
    mdm
      .command('entities')
      .description('Golden records (by entity type and status), or the one holding --system/--record-id')
      .option('--entity-type <type>')
      .option('--status <status>')
      .option('--system <system>')
      .option('--record-id <id>')
      .option('--limit <n>', 'at most this many', '50'),
  ).action(
    async (
      o: ApiOptions & { entityType?: string; status?: string; system?: string; recordId?: string; limit: string },
    ) => {
      const q = new URLSearchParams({ limit: o.limit });
      if (o.entityType) q.set('entity_type', o.entityType);
      if (o.status) q.set('status', o.status);
      if (o.system) q.set('system', o.system);
      if (o.recordId) q.set('record_id', o.recordId);
      const list = await apiClient(o).get<
        {
          entity_id: string;
          status: string;
          confidence_score: number;
          attributes: Record<string, string | null>;
          source_records: unknown[];
        }[]
      >(`${M}/entities?${q}`);
      print(o, list, (gs) =>
        table(
          ['entity_id', 'status', 'confidence', 'records', 'attributes'],
          gs.map((g) => [
            g.entity_id,
            g.status,
            g.confidence_score,
            g.source_records.length,
            Object.values(g.attributes)
              .filter((v) => v !== null)
              .join(' | '),
          ]),
        ),
      );
    },
  );
}
