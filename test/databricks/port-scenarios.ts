import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';

/**
 * Behaviour every Workspace adapter must show, written against the port only, mirroring the local
 * lakehouse tests (test/local). `ns` is a schema the scenarios may fill; each scenario uses its own tables.
 */
export interface Namespace {
  catalog: string;
  schema: string;
}
export interface Scenario {
  name: string;
  run(ws: Workspace, ns: Namespace): Promise<void>;
}

const at = (ns: Namespace, name: string): TableRef => ({ catalog: ns.catalog, schema: ns.schema, name });
const fq = (r: TableRef) => `${r.catalog}.${r.schema}.${r.name}`;

async function people(
  ws: Workspace,
  ns: Namespace,
  name: string,
  properties?: Record<string, string>,
): Promise<TableRef> {
  const r = at(ns, name);
  await ws.createTable({
    ref: r,
    properties,
    comment: 'People',
    columns: [
      { name: 'id', type: 'bigint', nullable: false, comment: 'key' },
      { name: 'name', type: 'string' },
      { name: 'region', type: 'string' },
      { name: 'score', type: 'decimal(10,2)' },
    ],
  });
  await ws.insertRows(r, [
    { id: 1, name: 'Ann', region: 'EMEA', score: 1.5 },
    { id: 2, name: "O'Brien", region: 'APAC', score: 2 },
    { id: 3, name: null, region: 'AMER', score: null },
  ]);
  return r;
}

async function ids(ws: Workspace, r: TableRef): Promise<number[]> {
  return (await ws.query(`SELECT id FROM ${fq(r)} ORDER BY id`)).rows.map((x) => Number(x.id));
}

function check(cond: boolean, what: string, detail?: unknown): void {
  if (!cond) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

export const scenarios: Scenario[] = [
  {
    name: 'deep clone at a version with extra properties keeps data, not tags or comments',
    async run(ws, ns) {
      const src = await people(ws, ns, 'deep_src', { team: 'core' });
      await ws.setTags({ type: 'TABLE', ...src }, { tier: 'gold' });
      await ws.deleteWhere(src, 'id = 1');
      const target = at(ns, 'deep_copy');
      const m = await ws.cloneTable({
        source: src,
        target,
        cloneType: 'DEEP',
        version: 1,
        properties: { cloned: 'yes' },
      });
      check(m.numCopiedFiles >= 1 && m.copiedFilesSize > 0, 'deep clone copied files', m);
      check(JSON.stringify(await ids(ws, target)) === '[1,2,3]', 'clone holds version 1 rows');
      const d = await ws.describeTable(target);
      check(d.properties.team === 'core' && d.properties.cloned === 'yes', 'properties copied and added', d.properties);
      check(Object.keys(await ws.getTags({ type: 'TABLE', ...target })).length === 0, 'tags are not cloned');
      check(
        (await ws.tableChecksum(target)) === (await ws.tableChecksum(src, { version: 1 })),
        'checksum equals source at v1',
      );
    },
  },
  {
    name: 'shallow clone copies no files and keeps its own writes',
    async run(ws, ns) {
      const src = await people(ws, ns, 'shallow_src');
      const target = at(ns, 'shallow_copy');
      const m = await ws.cloneTable({ source: src, target, cloneType: 'SHALLOW' });
      check(m.numCopiedFiles === 0, 'shallow clone copies nothing', m);
      await ws.insertRows(target, [{ id: 7 }]);
      check(JSON.stringify(await ids(ws, target)) === '[1,2,3,7]', 'clone sees its insert');
      check(JSON.stringify(await ids(ws, src)) === '[1,2,3]', 'source unchanged');
    },
  },
  {
    name: 'rejects a clone onto itself and both version and timestamp',
    async run(ws, ns) {
      const src = await people(ws, ns, 'self_src');
      await ws.cloneTable({ source: src, target: src, cloneType: 'DEEP' }).then(
        () => check(false, 'self clone accepted'),
        (e: { code?: string }) => check(e.code === 'INVALID_INPUT', 'self clone is invalid input', e.code),
      );
      await ws
        .cloneTable({ source: src, target: at(ns, 'x'), cloneType: 'DEEP', version: 1, timestamp: '2024-01-01' })
        .then(
          () => check(false, 'version+timestamp accepted'),
          (e: { code?: string }) => check(e.code === 'INVALID_INPUT', 'version+timestamp is invalid input', e.code),
        );
    },
  },
  {
    name: 'history, restore and stats agree',
    async run(ws, ns) {
      const r = await people(ws, ns, 'restore_me');
      await ws.deleteWhere(r, 'id > 1');
      const history = await ws.tableHistory(r);
      check(history[0].version > history[history.length - 1].version, 'history newest first');
      const before = await ws.tableStats(r, { version: 1 });
      check(before.rowCount === 3 && before.nullCounts.name === 1, 'stats at v1', before);
      await ws.restoreTable(r, { version: 1 });
      check(JSON.stringify(await ids(ws, r)) === '[1,2,3]', 'restored rows');
    },
  },
  {
    name: 'governance round trips: tags, comments, properties, constraints',
    async run(ws, ns) {
      const r = await people(ws, ns, 'governed');
      const s = { type: 'TABLE' as const, ...r };
      await ws.setTags(s, { domain: 'sales' });
      await ws.setColumnTags(r, 'name', { pii: 'name' });
      await ws.setComment(s, "People's table");
      await ws.setColumnComment(r, 'region', 'ISO region');
      await ws.setProperties(r, { 'lakeward.note': 'x' });
      await ws.addCheckConstraint(r, { name: 'id_positive', expression: 'id > 0' });
      check((await ws.getTags(s)).domain === 'sales', 'table tag');
      check((await ws.getColumnTags(r)).name?.pii === 'name', 'column tag');
      check((await ws.getComment(s)) === "People's table", 'comment');
      check((await ws.getColumnComments(r)).region === 'ISO region', 'column comment');
      check((await ws.getProperties(r))['lakeward.note'] === 'x', 'property');
      check(
        (await ws.listConstraints(r)).some((c) => c.name === 'id_positive'),
        'constraint',
      );
      await ws.insertRows(r, [{ id: -1 }]).then(
        () => check(false, 'constraint not enforced'),
        () => undefined,
      );
      await ws.unsetTags(s, ['domain']);
      await ws.dropConstraint(r, 'id_positive');
      check(!('domain' in (await ws.getTags(s))), 'tag removed');
    },
  },
  {
    name: 'change data feed lists inserts, updates and deletes by version',
    async run(ws, ns) {
      const r = await people(ws, ns, 'cdf', { 'delta.enableChangeDataFeed': 'true' });
      await ws.updateWhere(r, { region: "'EU'" }, 'id = 1');
      await ws.deleteWhere(r, 'id = 3');
      const changes = await ws.tableChanges(r, 2);
      const kinds = changes.map((c) => c._change_type).sort();
      check(
        JSON.stringify(kinds) === JSON.stringify(['delete', 'update_postimage', 'update_preimage']),
        'change kinds',
        kinds,
      );
    },
  },
  {
    name: 'vacuum dry run deletes nothing and the SQL workbench refuses writes',
    async run(ws, ns) {
      const r = await people(ws, ns, 'vac');
      const v = await ws.vacuumTable(r, { dryRun: true });
      check(v.dryRun, 'dry run flagged');
      check(JSON.stringify(await ids(ws, r)) === '[1,2,3]', 'data intact');
      await ws.query(`DELETE FROM ${fq(r)}`).then(
        () => check(false, 'write accepted'),
        (e: { code?: string }) => check(e.code === 'INVALID_INPUT', 'write refused', e.code),
      );
    },
  },
];
