import { WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from 'pino';
import type { ActivityDeps } from '../..';
import { configTargetCipher } from '../../../store/targets/cipher';
import { cloneWorkspaceResolver } from '../resolve-workspace';
import { sweepQuiescedGrants } from './activities';

/**
 * At worker start: give back source write privileges that a quiesced job revoked but never re-granted because
 * its workflow was terminated (not cancelled) or its history is gone. Jobs still running keep their revocation;
 * their own non-cancellable clean-up restores it.
 */
export async function sweepQuiescedGrantsAtStart(deps: ActivityDeps, logger: Logger): Promise<void> {
  const resolveWorkspace = cloneWorkspaceResolver(deps.workspaces, deps.store.db, configTargetCipher(deps.config));
  const isOpen = async (jobId: string) => {
    try {
      return (await deps.client.workflow.getHandle(jobId).describe()).status.name === 'RUNNING';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  };
  try {
    const swept = await sweepQuiescedGrants({ db: deps.store.db, resolveWorkspace }, isOpen);
    if (swept.length > 0) logger.warn({ jobs: swept }, 're-granted source write privileges left revoked by ended jobs');
  } catch (err) {
    logger.error({ err }, 'quiesce sweep failed; it runs again at the next worker start');
  }
}
