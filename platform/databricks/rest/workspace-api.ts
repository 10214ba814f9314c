import type { RestClient } from './http';

/** Workspace REST beyond Unity Catalog: identity, SQL warehouses and statements, Jobs (2.2), model serving, Genie. */
export interface Warehouse {
  id: string;
  name: string;
  state?: string;
  cluster_size?: string;
  warehouse_type?: string;
  enable_serverless_compute?: boolean;
  min_num_clusters?: number;
  max_num_clusters?: number;
  auto_stop_mins?: number;
  enable_photon?: boolean;
  channel?: { name?: string };
  tags?: { custom_tags?: { key: string; value: string }[] };
  odbc_params?: { hostname?: string; path?: string; port?: number; protocol?: string };
}
export interface JobSummary {
  job_id: number;
  settings?: Record<string, unknown> & { name?: string };
  creator_user_name?: string;
  created_time?: number;
}
export interface ServingEndpoint {
  name: string;
  state?: { ready?: string; config_update?: string };
  config?: {
    served_entities?: {
      name?: string;
      entity_name?: string;
      external_model?: { name?: string; provider?: string };
      foundation_model?: { name?: string };
    }[];
  };
}
/** A Genie (AI/BI natural-language SQL) space. */
export interface GenieSpace {
  space_id: string;
  title?: string;
  description?: string;
}
/** The Statement Execution API's answer (only the fields Lakeward reads). */
export interface StatementResponse {
  statement_id?: string;
  status?: { state?: string; error?: { message?: string; error_code?: string } };
  result?: { data_array?: unknown[][] };
}

const enc = encodeURIComponent;

export class WorkspaceApi {
  constructor(private readonly http: RestClient) {}

  async currentUser(): Promise<{ userName: string; displayName?: string; id?: string }> {
    return this.http.request('GET', '/api/2.0/preview/scim/v2/Me');
  }

  listWarehouses = () => this.http.listAll<Warehouse>('/api/2.0/sql/warehouses', 'warehouses');
  getWarehouse = (id: string) => this.http.request<Warehouse>('GET', `/api/2.0/sql/warehouses/${enc(id)}`);
  startWarehouse = (id: string) => this.http.request<object>('POST', `/api/2.0/sql/warehouses/${enc(id)}/start`);
  stopWarehouse = (id: string) => this.http.request<object>('POST', `/api/2.0/sql/warehouses/${enc(id)}/stop`);

  /** Jobs list pages with `has_more` + `next_page_token`; listAll stops when no token comes back. */
  listJobs = (opts: { name?: string; expandTasks?: boolean } = {}) =>
    this.http.listAll<JobSummary>('/api/2.2/jobs/list', 'jobs', {
      limit: 100,
      name: opts.name,
      expand_tasks: opts.expandTasks,
    });
  getJob = (jobId: number) => this.http.request<JobSummary>('GET', '/api/2.2/jobs/get', { query: { job_id: jobId } });
  /** One page of a job (tasks, job_clusters, environments, parameters come 100 at a time with next_page_token). */
  getJobPage = (jobId: number, pageToken?: string) =>
    this.http.request<Record<string, unknown>>('GET', '/api/2.2/jobs/get', {
      query: { job_id: jobId, page_token: pageToken },
    });
  /** One page of the job list (limit ≤ 100), optionally by exact name. */
  listJobsPage = (opts: { name?: string; limit: number }) =>
    this.http.request<{ jobs?: JobSummary[] }>('GET', '/api/2.2/jobs/list', {
      query: { limit: opts.limit, name: opts.name },
    });
  createJob = (settings: Record<string, unknown>) =>
    this.http.request<{ job_id: number }>('POST', '/api/2.2/jobs/create', { body: settings });
  /** Overwrites all settings of a job. */
  resetJob = (jobId: number, newSettings: Record<string, unknown>) =>
    this.http.request<object>('POST', '/api/2.2/jobs/reset', { body: { job_id: jobId, new_settings: newSettings } });
  runJobNow = (jobId: number) =>
    this.http.request<{ run_id: number }>('POST', '/api/2.2/jobs/run-now', { body: { job_id: jobId } });

  listGenieSpaces = () => this.http.listAll<GenieSpace>('/api/2.0/genie/spaces', 'spaces');

  /** Runs one statement on a named warehouse and waits for it (up to 30 s, then cancels). */
  executeStatement = (warehouseId: string, statement: string) =>
    this.http.request<StatementResponse>('POST', '/api/2.0/sql/statements', {
      body: {
        warehouse_id: warehouseId,
        statement,
        wait_timeout: '30s',
        on_wait_timeout: 'CANCEL',
        disposition: 'INLINE',
        format: 'JSON_ARRAY',
      },
    });

  async listServingEndpoints(): Promise<ServingEndpoint[]> {
    const res = await this.http.request<{ endpoints?: ServingEndpoint[] }>('GET', '/api/2.0/serving-endpoints');
    return res.endpoints ?? [];
  }
}
