/**
 * The data-quality engine's public interface: a pure (I/O-free) DQX-compatible check model, function catalog,
 * argument validation, SQL compiler, YAML (de)serializer, check generator and profile drift. The API, workflows
 * and activities import from here only.
 */
export type * from './types';
export { CHECK_FUNCTIONS, findCheckFunction, CLONE_XS_ALIASES } from './catalog';
export { normalizeCheck, type CheckInput } from './normalize';
export { checkUserSql, type UserSqlKind } from './sql-guard';
export { detectPii, PII_TYPES, type PiiType } from './pii';
export { compileTableRun, compileSegmentedScan, FAILED_CHECKS_COLUMN, type SegmentedScan } from './compile-table';
export { summarizeRun, type RunCounts, type RunSummary } from './summarize';
export { toDqxYaml, fromDqxYaml, DqxYamlError, type YamlImportOptions } from './yaml';
export { checkKey, dedupeChecks } from './check-key';
export { generateChecks, type GenerateOptions } from './generate';
export { profileDrift, checkColumns } from './drift';
export { referenceSchemaTables, withReferenceSchemas } from './reference-schemas';
