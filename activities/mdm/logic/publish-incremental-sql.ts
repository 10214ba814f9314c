import type { MdmModel } from '../../../schemas/mdm';
import { ident, lit } from '../../data-quality/logic/sql-text';
import { assignSql } from './cluster-sql';
import { attributesOf } from './compare-sql';
import { GOLDEN_HEAD, GOLDEN_TAIL } from './golden-sql';
import type { MatchTables } from './match-sql';
import { tableSql } from './standardise';

/**
 * Incremental publishing: a cluster whose records are exactly those of one previous golden record, none of them
 * dirty (new, changed, or in a component clustering computed again), keeps that golden record as it is (its id,
 * values, confidence and status are what a full run computes). Only the other clusters get ids, survivorship and
 * status again, from the previous golden records they overlap (none of which overlaps a kept cluster).
 */

/** Golden records a steward's value touches (now or before): never kept, their values are computed again. */
export interface Stewarded {
  entityIds: string[];
  uids: string[];
}

/** The clusters kept as they are: label, entity_id, n (records). */
export function keptClustersSql(model: MdmModel, t: MatchTables, stewarded: Stewarded): string {
  const members = tableSql(t.members);
  const clusters =
    `SELECT l.label, min(m.entity_id) AS entity_id, count(*) AS n, count(m.entity_id) AS nm, ` +
    `count(DISTINCT m.entity_id) AS ne, count_if(l.dirty) AS nd FROM ${tableSql(t.labels)} l ` +
    `LEFT JOIN ${members} m ON m.uid = l.uid GROUP BY l.label`;
  const sizes = `SELECT entity_id, count(*) AS n FROM ${members} GROUP BY entity_id`;
  const bySteward = attributesOf(model)
    .map((a) => `${ident(`${a}__source`)} LIKE 'steward:%'`)
    .join(' OR ');
  const ids = stewarded.entityIds.length ? ` OR c.entity_id IN (${stewarded.entityIds.map(lit).join(', ')})` : '';
  const uids = stewarded.uids.length
    ? ` OR c.label IN (SELECT label FROM ${tableSql(t.labels)} WHERE uid IN (${stewarded.uids.map(lit).join(', ')}))`
    : '';
  return (
    `SELECT c.label, c.entity_id, c.n FROM (${clusters}) c JOIN (${sizes}) s ON s.entity_id = c.entity_id AND s.n = c.n ` +
    `JOIN ${tableSql(t.golden)} g ON g.entity_id = c.entity_id ` +
    `WHERE c.nd = 0 AND c.ne = 1 AND c.nm = c.n AND NOT (coalesce(${bySteward}, FALSE)${ids}${uids})`
  );
}

/**
 * Each live record's golden record id: kept clusters keep theirs, the others are assigned as in a full run. The
 * kept clusters are one common table expression (computed once, read twice).
 */
export function incrementalAssignSql(model: MdmModel, t: MatchTables, runId: string, stewarded: Stewarded): string {
  const others = `(SELECT uid, label FROM ${tableSql(t.labels)} WHERE label NOT IN (SELECT label FROM kept_clusters))`;
  return (
    `WITH kept_clusters AS (${keptClustersSql(model, t, stewarded)}) ` +
    `SELECT l.uid, l.label, k.entity_id, k.n AS size, TRUE AS kept FROM ${tableSql(t.labels)} l ` +
    `JOIN kept_clusters k ON k.label = l.label UNION ALL ${assignSql(t, others, runId, true)}`
  );
}

/** The kept golden records, as the previous run published them. */
export function keptGoldenSql(model: MdmModel, t: MatchTables): string {
  const cols = [
    ...GOLDEN_HEAD,
    ...attributesOf(model).flatMap((a) => [ident(a), ident(`${a}__source`)]),
    ...GOLDEN_TAIL,
  ];
  return (
    `SELECT ${cols.map((c) => `o.${c}`).join(', ')} FROM ${tableSql(t.golden)} o ` +
    `WHERE o.entity_id IN (SELECT entity_id FROM ${tableSql(t.assign)} WHERE kept)`
  );
}
