import type { PipelineDetail, PipelineListOptions, PipelinePage, PipelineSummary, PipelineUpdate } from '../../types';
import type { RestClient } from './http';

/** The Pipelines API (api/2.0/pipelines) as it answers: fields we read, the rest ignored. */
interface RawUpdate {
  update_id?: string;
  state?: string;
  creation_time?: string;
}
interface RawPipeline {
  pipeline_id: string;
  name?: string;
  state?: string;
  latest_updates?: RawUpdate[];
  spec?: { catalog?: string; target?: string; schema?: string };
}

const updatesOf = (raw: RawUpdate[] | undefined): PipelineUpdate[] =>
  (raw ?? []).map((u) => ({
    update_id: u.update_id ?? '',
    state: u.state ?? 'UNKNOWN',
    ...(u.creation_time ? { creation_time: u.creation_time } : {}),
  }));

const summaryOf = (p: RawPipeline): PipelineSummary => ({
  pipeline_id: p.pipeline_id,
  name: p.name ?? '',
  state: p.state ?? 'UNKNOWN',
  latest_updates: updatesOf(p.latest_updates),
});

export class PipelinesApi {
  constructor(private readonly http: RestClient) {}

  /** One page; `filter` (e.g. `name LIKE '%sales%'`) and `page_token` go to Databricks unchanged. */
  async list(opts: PipelineListOptions = {}): Promise<PipelinePage> {
    const page = await this.http.request<{ statuses?: RawPipeline[]; next_page_token?: string }>(
      'GET',
      '/api/2.0/pipelines',
      { query: { filter: opts.filter, page_token: opts.pageToken, max_results: opts.maxResults } },
    );
    return {
      pipelines: (page.statuses ?? []).map(summaryOf),
      ...(page.next_page_token ? { next_page_token: page.next_page_token } : {}),
    };
  }

  /** The pipeline with its spec's catalog and target schema (`schema` in newer specs). */
  async get(id: string): Promise<PipelineSummary & { catalog: string | null; target: string | null }> {
    const p = await this.http.request<RawPipeline>('GET', `/api/2.0/pipelines/${encodeURIComponent(id)}`);
    return { ...summaryOf(p), catalog: p.spec?.catalog ?? null, target: p.spec?.target ?? p.spec?.schema ?? null };
  }
}

/** The pipeline and the tables of its target schema (none when the spec names no catalog and target). */
export async function pipelineDetail(
  api: PipelinesApi,
  id: string,
  listTables: (catalog: string, schema: string) => Promise<{ name: string }[]>,
): Promise<PipelineDetail> {
  const p = await api.get(id);
  const tables =
    p.catalog && p.target
      ? (await listTables(p.catalog, p.target)).map((t) => `${p.catalog}.${p.target}.${t.name}`)
      : [];
  return { ...p, tables: tables.sort() };
}
