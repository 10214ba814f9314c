/**
 * The jobs list's call, shared by the page and the navigation prefetch (pages/prefetch.ts), so a navigation to
 * /jobs starts the call before the page renders and the page finds it in flight (the same key).
 */
import type { Api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { uiState } from '../../state/ui-state';

export const JOB_STATUSES = ['queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled', 'aborted'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOBS_PAGE = 200;

export interface JobsFilters {
  type: string;
  status: JobStatus | '';
  text: string;
  page: number;
}

/** The filters the page opens with: the ones kept in UI state (30 minutes), else none. */
export const initialJobsFilters = (): JobsFilters =>
  uiState.load<JobsFilters>('jobs.filters') ?? { type: '', status: '', text: '', page: 0 };

export function jobsListQuery(api: Api, filters: JobsFilters) {
  const query = {
    limit: JOBS_PAGE,
    offset: filters.page * JOBS_PAGE,
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
  return {
    queryKey: ['jobs', query] as const,
    queryFn: () => unwrap(api.client.GET('/api/jobs', { params: { query } })),
  };
}
