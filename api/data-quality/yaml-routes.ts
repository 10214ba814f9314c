import { z } from 'zod';
import { fromDqxYaml, normalizeCheck, toDqxYaml, type DqCheck } from '../../activities/data-quality/logic';
import { DqxYamlError } from '../../activities/data-quality/logic/yaml';
import { ExportQuerySchema, ImportBodySchema } from '../../schemas/data-quality-profiles';
import { asDqxCheck, insertChecks, listChecks, updateCheck } from '../../store/data-quality/checks';
import { saveCheckDefinition } from '../../store/data-quality/profiles';
import { guardCheckSql } from '../governance/check-access';
import { currentCaller } from '../middleware/auth';
import { HttpError } from '../middleware/http-error';
import { route } from '../middleware/route';
import { actorOf, capabilitiesOf, checkRow, dqWorkspace, newCheckId, tableShape } from './checks-service';

const G = '/governance/dqx';

const ImportItemSchema = z.object({
  index: z.number(),
  status: z.enum(['created', 'updated', 'unchanged', 'rejected']),
  check_id: z.string().nullable(),
  name: z.string().nullable(),
  reason: z.string().nullable(),
});

/**
 * The export's body as a YAML reader sees it: one DQX check list (the all-tables form only adds comments between
 * tables' items, so it parses as one list too).
 */
const DqxYamlDocumentSchema = z
  .array(
    z
      .object({
        name: z.string().optional(),
        criticality: z.string().optional(),
        check: z.object({ function: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }).loose(),
        filter: z.string().optional(),
        user_metadata: z.record(z.string(), z.unknown()).optional(),
      })
      .loose(),
  )
  .meta({ id: 'DqxYamlDocument' });

/** Checks grouped by table, in the stored order (table, then name). */
function byTable(checks: DqCheck[]): Map<string, DqCheck[]> {
  const out = new Map<string, DqCheck[]>();
  for (const c of checks) out.set(c.table_fqn, [...(out.get(c.table_fqn) ?? []), c]);
  return out;
}

/** Two checks are the same when their canonical YAML is (argument order and aliases do not matter). */
const same = (a: DqCheck, b: DqCheck) => toDqxYaml([a]) === toDqxYaml([b]);

export const yamlRoutes = [
  route({
    method: 'get',
    path: `${G}/checks/export`,
    summary: "Canonical DQX YAML of a table's checks (all tables: one section per table, headed by a comment)",
    request: { query: ExportQuerySchema },
    response: {
      description: 'DQX YAML: a list of checks, as DQX loads it',
      schema: DqxYamlDocumentSchema,
      mediaTypes: ['application/yaml'],
    },
    handler: async ({ deps, input: { query }, res }) => {
      const checks = (await listChecks(deps.store.db, { tableFqn: query.table_fqn })).map(asDqxCheck);
      const text =
        query.table_fqn || checks.length === 0
          ? toDqxYaml(checks)
          : [...byTable(checks)].map(([t, cs]) => `# table_fqn: ${t}\n${toDqxYaml(cs)}`).join('\n');
      res.type('application/yaml').send(text);
      return undefined;
    },
  }),
  route({
    method: 'post',
    path: `${G}/checks/import`,
    summary:
      'Import DQX YAML (DQX docs, Clone-Xs or Lakeward export): per item created, updated, unchanged or rejected',
    request: { body: ImportBodySchema },
    response: {
      description: 'What happened to each item',
      schema: z.object({
        table_fqn: z.string().nullable(),
        created: z.number(),
        updated: z.number(),
        rejected: z.number(),
        items: z.array(ImportItemSchema),
      }),
    },
    errors: { 404: 'The table does not exist' },
    handler: async ({ deps, input: { body } }) => {
      const ws = await dqWorkspace(deps);
      const caps = capabilitiesOf(ws);
      let parsed;
      try {
        const table = body.table_fqn ? await tableShape(ws, body.table_fqn) : undefined;
        parsed = fromDqxYaml(body.yaml_content, body.table_fqn, { table, capabilities: caps });
      } catch (err) {
        if (!(err instanceof DqxYamlError)) throw err;
        throw new HttpError(400, 'VALIDATION_ERROR', err.message, [
          { path: 'body.yaml_content', message: err.message },
        ]);
      }
      const by = actorOf(deps);
      const items: z.infer<typeof ImportItemSchema>[] = [];
      const existing = new Map<string, DqCheck[]>();
      for (const item of parsed) {
        const reject = (reason: string) =>
          items.push({ index: item.index, status: 'rejected', check_id: null, name: null, reason });
        if (item.status === 'rejected' || !item.check) {
          reject(item.reason ?? 'rejected');
          continue;
        }
        let check = item.check;
        if (!body.table_fqn) {
          // Items naming their own table are validated against that table's columns here.
          const shape = await tableShape(ws, check.table_fqn).catch(() => null);
          if (!shape) {
            reject(`table_fqn: ${check.table_fqn} does not exist`);
            continue;
          }
          const again = normalizeCheck(check, shape, caps);
          if (!again.ok) {
            reject(again.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
            continue;
          }
          check = again.check[0];
        }
        const refusal = await guardCheckSql(deps, currentCaller(), check).then(
          () => null,
          (err: unknown) => (err instanceof HttpError ? err.message : Promise.reject(err)),
        );
        if (refusal) {
          reject(refusal);
          continue;
        }
        if (!existing.has(check.table_fqn))
          existing.set(
            check.table_fqn,
            (await listChecks(deps.store.db, { tableFqn: check.table_fqn })).map(asDqxCheck),
          );
        const match = existing.get(check.table_fqn)!.find((e) => e.name === check.name);
        if (match && same(match, check)) {
          items.push({ index: item.index, status: 'unchanged', check_id: match.id!, name: check.name, reason: null });
        } else if (match) {
          await updateCheck(
            deps.store.db,
            match.id!,
            {
              checkFunction: check.check_function,
              arguments: check.arguments,
              criticality: check.criticality,
              filterExpr: check.filter && check.filter.trim() !== '' ? check.filter : null,
              userMetadata: (check.user_metadata as Record<string, string> | null | undefined) ?? null,
            },
            by,
          );
          items.push({ index: item.index, status: 'updated', check_id: match.id!, name: check.name, reason: null });
        } else {
          const [row] = await insertChecks(deps.store.db, [checkRow({ ...check, id: newCheckId() }, by)], by);
          existing.get(check.table_fqn)!.push(asDqxCheck(row));
          items.push({ index: item.index, status: 'created', check_id: row.checkId, name: row.name, reason: null });
        }
      }
      await saveCheckDefinition(deps.store.db, {
        definitionId: newCheckId(),
        tableFqn: body.table_fqn ?? null,
        checksYaml: body.yaml_content,
        source: 'import',
        createdBy: by,
      });
      const count = (s: string) => items.filter((i) => i.status === s).length;
      return {
        table_fqn: body.table_fqn ?? null,
        created: count('created'),
        updated: count('updated'),
        rejected: count('rejected'),
        items,
      };
    },
  }),
];
