import type { DeltaEngineStatics } from './delta/contract';
import { DeltaTable } from './delta';

/** The Delta engine (platform/local/delta) as the workspace sees it: only the contract's statics. */
export function deltaEngine(): DeltaEngineStatics {
  return DeltaTable;
}
