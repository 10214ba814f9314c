import { CancellationScope, condition, ContinueAsNew, setHandler } from '@temporalio/workflow';
import { releaseQuiesceSignal, type CloneJobInput } from './definitions';
import { grants } from './safety-proxies';

/**
 * Runs a clone with its source quiesced: write privileges on the selected source schemas are revoked first
 * and re-granted at the end — after success, failure or cancellation, in a non-cancellable scope — or earlier
 * on `releaseQuiesce`. What was revoked is recorded in Postgres before each revoke, so whichever worker runs
 * the release (after a crash, another one) gives back exactly that. Across continue-as-new the grants stay
 * revoked: pass `resumed` in the new run so it releases without revoking again.
 */
export async function withQuiesce<T>(
  input: CloneJobInput,
  body: () => Promise<T>,
  opts: { resumed?: boolean } = {},
): Promise<T> {
  const o = input.options;
  if (!o.quiesce_source || o.dry_run) return body();
  let releaseAsked = false;
  let released = false;
  const release = () =>
    CancellationScope.nonCancellable(async () => {
      if (released) return;
      await grants.releaseQuiesce(input.jobId);
      released = true;
    });
  setHandler(releaseQuiesceSignal, () => {
    releaseAsked = true;
  });
  let continuing = false;
  try {
    if (!opts.resumed) {
      await grants.quiesceSource({ jobId: input.jobId, workspace: input.source, options: o });
    }
    void condition(() => releaseAsked)
      .then(release)
      .catch(() => undefined);
    return await body();
  } catch (err) {
    continuing = err instanceof ContinueAsNew;
    throw err;
  } finally {
    if (!continuing) await release();
  }
}
