import { InvalidInputError, NotFoundError } from '../../platform/errors';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { MdmModel, MdmSource } from '../../schemas/mdm';
import type { IngestSourceSummary } from '../../schemas/mdm-runs';
import { aliases, ingestSql, recordsColumns, recordsTable, type RecordsTable } from './logic/standardise';

const num = (v: unknown) => Number(v ?? 0);

/**
 * Creates `<catalog>.mdm` and the entity type's source_records table when missing. A table whose columns no
 * longer fit the model (attributes added or removed) is replaced: every system is read again by its next ingest.
 * Answers whether it was (re)created.
 */
export async function ensureRecordsTable(ws: Workspace, catalog: string, model: MdmModel): Promise<boolean> {
  const t = recordsTable(catalog, model.entity_type);
  await ws.createCatalog({ name: catalog, ifNotExists: true });
  await ws.createSchema({ catalog, name: t.schema, ifNotExists: true });
  const want = recordsColumns(model);
  if (await ws.tableExists(t)) {
    const have = (await ws.describeTable(t)).columns.map((c) => c.name);
    if (have.join(',') === want.map((c) => c.name).join(',')) return false;
    await ws.dropTable(t);
  }
  await ws.createTable({ ref: t, columns: want, comment: `MDM source records of ${model.entity_type}` });
  return true;
}

/** The source table's column types; a missing table or mapped column is a non-retryable failure naming it. */
async function sourceTypes(ws: Workspace, source: MdmSource): Promise<Record<string, string>> {
  const ref = parseFqn(source.table_fqn);
  if (!(await ws.tableExists(ref)))
    throw new NotFoundError(`source ${source.system}: table ${source.table_fqn} not found`);
  const types = Object.fromEntries((await ws.describeTable(ref)).columns.map((c) => [c.name, c.type]));
  const wanted = [
    source.key_column,
    ...Object.values(source.columns),
    ...(source.updated_at_column ? [source.updated_at_column] : []),
  ];
  const missing = wanted.filter((c) => !(c in types));
  if (missing.length)
    throw new InvalidInputError(`source ${source.system}: ${source.table_fqn} has no column ${missing.join(', ')}`);
  return types;
}

/**
 * One system's ingest: one read for the counts, one INSERT … SELECT that standardises every attribute and keeps
 * the latest row per key (carrying changed_at over when the values did not change), then the superseded rows of
 * this system go and the ones whose key vanished from the source are marked deleted. Safe to retry: an attempt
 * first removes what an earlier attempt of the same ingest wrote.
 */
export async function ingestSource(
  ws: Workspace,
  req: { ingestId: string; catalog: string; model: MdmModel; source: MdmSource; ts: string },
): Promise<IngestSourceSummary> {
  const target: RecordsTable = recordsTable(req.catalog, req.model.entity_type);
  const types = await sourceTypes(ws, req.source);
  const sql = ingestSql(req.model, req.source, types, target, req.ingestId, req.ts);
  const codes = Object.entries(req.model.attributes).filter(
    ([a, spec]) => spec.kind === 'code' && req.source.columns[a],
  );
  if (codes.length && !(await ws.tableExists(aliases(target))))
    throw new InvalidInputError(
      `no reference data table ${target.catalog}.mdm.reference_aliases for ${codes.map(([a, s]) => `${a} (${s.domain})`).join(', ')}: ` +
        'load the domain through /api/mdm/reference-data first',
    );
  const stats = (await ws.query(sql.stats)).rows[0] ?? {};
  await ws.deleteWhere(target, sql.ownPredicate);
  await ws.insertQuery(target, sql.insert);
  await ws.deleteWhere(target, sql.supersededPredicate);
  const { numUpdatedRows: vanished } = await ws.updateWhere(
    target,
    { deleted: 'TRUE', changed_at: `CAST('${req.ts}' AS TIMESTAMP)` },
    sql.vanishedPredicate,
  );
  const written = (await ws.query(sql.changed)).rows[0] ?? {};
  const skipped: Record<string, number> = {};
  if (num(stats.missing_key)) skipped['missing key'] = num(stats.missing_key);
  if (num(stats.no_values)) skipped['no attribute values'] = num(stats.no_values);
  return {
    system: req.source.system,
    rows_read: num(stats.rows_read),
    rows_written: num(written.written),
    skipped,
    duplicate_keys: num(stats.duplicate_keys),
    ...(codes.length ? { unknown_codes: num(stats.unknown_codes) } : {}),
    changed: num(written.changed),
    vanished,
  };
}
