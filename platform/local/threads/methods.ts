/**
 * The port calls a local lakehouse thread runs: metadata reads and writes and shallow clones, whose work is
 * synchronous file-system calls on small files (they would otherwise hold the worker's main thread, where
 * Temporal, the store and the other activities run). Arguments and results are plain data. Everything else
 * (SQL on DuckDB, data copies by helper processes, volume files as Buffers) stays on the caller's thread.
 */
export const THREADED_METHODS: ReadonlySet<string> = new Set([
  'listCatalogs',
  'getCatalog',
  'listSchemas',
  'getSchema',
  'listTables',
  'listViews',
  'listFunctions',
  'listVolumes',
  'tableExists',
  'describeTable',
  'tableHistory',
  'tableDetail',
  'cloneTable',
  'getOwner',
  'setOwner',
  'getGrants',
  'grant',
  'revoke',
  'getTags',
  'setTags',
  'unsetTags',
  'getColumnTags',
  'setColumnTags',
  'getComment',
  'setComment',
  'getColumnComments',
  'setColumnComment',
  'getProperties',
  'setProperties',
  'unsetProperties',
  'listConstraints',
  'getRowFilter',
  'getColumnMasks',
]);
