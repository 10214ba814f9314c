import { applyCloneDefaults, type CloneRequestInput } from '../../schemas/clone';
import type { CloneJobInput } from '../../workflows/clone/definitions';

let seq = 0;
/** A job id in the API's format (clone-YYYYMMDD-HHMMSS-xxxx), unique across parallel test files. */
export function newJobId(): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return `clone-${stamp}-${(process.pid % 0xfff).toString(16)}${(seq++).toString(16).padStart(4, '0')}${Math.random().toString(16).slice(2, 6)}`;
}

/** A clone job input as the API builds it: `prod` → `dev` in one local lakehouse unless `request` says otherwise. */
export function cloneJobInput(
  root: string,
  request: Partial<CloneRequestInput>,
  extra: Partial<CloneJobInput> = {},
): CloneJobInput {
  const options = applyCloneDefaults({
    source_catalog: 'prod',
    destination_catalog: 'dev',
    ...request,
  } as CloneRequestInput);
  return {
    jobId: newJobId(),
    options,
    source: { kind: 'local', root },
    targets: [{ label: 'local', workspace: { kind: 'local', root }, destinationCatalog: options.destination_catalog }],
    createdAt: new Date().toISOString(),
    maxRetries: 3,
    retryInitialIntervalMs: 100,
    ...extra,
  };
}
