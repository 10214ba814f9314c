import { cloneJobType } from '../clone/job-type';
import { dqJobType } from '../data-quality/job-type';
import { fanoutJobType } from '../fanout/job-type';
import { mdmIngestJobType } from '../mdm/job-types';
import { mdmMatchJobType } from '../mdm/match-job-type';
import { mdmReportJobType } from '../mdm/report-job-type';
import { storageJobType } from '../storage/job-type';
import { catalogSyncJobType, incrementalSyncJobType } from '../sync/job-type';
import { notebookRunJobType } from '../workbench/job-type';
import { generateJobType } from '../generators/job-type';
import { recommendationApplyJobType, recommendationsJobType } from '../finops/recommendations-job-types';
import { pipelineJobType } from '../pipeline/job-type';
import type { JobTypeDefinition } from './registry';

/** The job types the service runs. A new job type adds one line here (see the README's "Adding a job type"). */
export const builtInJobTypes: JobTypeDefinition[] = [
  cloneJobType as JobTypeDefinition,
  dqJobType as JobTypeDefinition,
  fanoutJobType as JobTypeDefinition,
  mdmIngestJobType as JobTypeDefinition,
  mdmMatchJobType as JobTypeDefinition,
  mdmReportJobType as JobTypeDefinition,
  storageJobType as JobTypeDefinition,
  incrementalSyncJobType as JobTypeDefinition,
  catalogSyncJobType as JobTypeDefinition,
  notebookRunJobType as JobTypeDefinition,
  generateJobType as JobTypeDefinition,
  pipelineJobType as JobTypeDefinition,
  recommendationsJobType as JobTypeDefinition,
  recommendationApplyJobType as JobTypeDefinition,
];
