import { NotFoundError } from '../errors';
import type { PipelineDetail, PipelinePage } from '../types';

/** The local lakehouse runs no DLT pipelines: the list is empty and every id is unknown. */
export const listPipelines = async (): Promise<PipelinePage> => ({ pipelines: [] });

export const getPipeline = async (id: string): Promise<PipelineDetail> => {
  throw new NotFoundError(`no pipeline ${id}: the local lakehouse runs no DLT pipelines`);
};
