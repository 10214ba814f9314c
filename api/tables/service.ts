import { InvalidInputError, NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { HistoryEntry, TableDescription, TableRef } from '../../platform/types';
import type { TableDetails } from '../../schemas/tables';
import { contractsOfTable } from '../../store/contracts/repo';
import { listChecks } from '../../store/data-quality/checks';
import type { Db } from '../../store/db';
import { badRequest, HttpError } from '../middleware/http-error';

const notFound = (fullName: string) =>
  new HttpError(404, 'NOT_FOUND', `Table ${fullName} does not exist`, [
    { path: 'params.full_name', message: 'no such table' },
  ]);

/** Reads the table's description and history from the workspace and its checks and contracts from the store. */
export async function tableDetails(ws: Workspace, db: Db, ref: TableRef, historyLimit: number): Promise<TableDetails> {
  const fullName = `${ref.catalog}.${ref.schema}.${ref.name}`;
  let d: TableDescription;
  try {
    d = await ws.describeTable(ref);
  } catch (err) {
    if (err instanceof NotFoundError) throw notFound(fullName);
    // A name the schema lets through but this platform refuses (the local lakehouse's names are folder names).
    if (err instanceof InvalidInputError)
      throw badRequest(err.message, [{ path: 'params.full_name', message: err.message }]);
    throw err;
  }
  const [history, checks, contracts] = await Promise.all([
    historyOf(ws, ref, d, historyLimit),
    listChecks(db, { tableFqn: fullName }),
    contractsOfTable(db, fullName),
  ]);
  const partitions = new Set(d.partitionColumns);
  const enabled = checks.filter((c) => c.enabled).length;
  return {
    full_name: fullName,
    catalog: d.catalog,
    schema: d.schema,
    name: d.name,
    table_type: d.tableType,
    format: d.format,
    owner: d.owner,
    comment: d.comment,
    location: d.location,
    created_at: d.createdAt,
    last_altered: d.lastAltered,
    version: d.version,
    size_bytes: d.sizeBytes,
    num_files: d.numFiles,
    partition_columns: d.partitionColumns,
    properties: d.properties,
    columns: d.columns.map((c) => ({ ...c, partition: partitions.has(c.name) })),
    history: history.map((h) => ({
      version: h.version,
      timestamp: h.timestamp,
      operation: h.operation,
      operation_parameters: h.operationParameters,
      operation_metrics: h.operationMetrics,
      user_name: h.userName,
    })),
    links: {
      lineage: { method: 'POST', path: '/api/lineage', body: { table: fullName } },
      quality: checks.length
        ? {
            method: 'GET',
            path: `/api/governance/dqx/checks?table_fqn=${encodeURIComponent(fullName)}`,
            checks: checks.length,
            enabled_checks: enabled,
          }
        : null,
      contracts: contracts.map((name) => ({
        method: 'GET',
        path: `/api/governance/odcs/${encodeURIComponent(name)}`,
        name,
      })),
    },
  };
}

/** Delta tables have a history; views and other formats answer with none. */
async function historyOf(ws: Workspace, ref: TableRef, d: TableDescription, limit: number): Promise<HistoryEntry[]> {
  if (limit === 0 || d.version === null) return [];
  return ws.tableHistory(ref, limit);
}
