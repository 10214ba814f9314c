import type { DeltaEngineStatics } from './contract';
import { DeltaTable } from './table';

export { DeltaTable };
export type * from './contract';

/** Compile-time proof that the class carries the engine's static factory methods. */
export const deltaEngine: DeltaEngineStatics = DeltaTable;
