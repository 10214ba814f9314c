import { z } from 'zod';
import {
  contractSettings,
  generateContract,
  nextVersion,
  stamp,
  type OdcsDocument,
} from '../../activities/contracts/logic';
import type { ContractValidateInput } from '../../activities/contracts';
import { isPlatformError } from '../../platform/errors';
import { parseFqn } from '../../platform/identifiers';
import {
  AttachSchema,
  ContractDocumentViewSchema,
  ContractGenerateSchema,
  ContractIdParamsSchema,
  ContractImportSchema,
  ContractUpdateSchema,
  ContractViewSchema,
  DeleteResultSchema,
  ValidateBodySchema,
  ValidationRecordSchema,
  ValidationResultSchema,
} from '../../schemas/contracts';
import {
  attach,
  detach,
  getContract,
  listContracts,
  publishDraft,
  setContractStatus,
  validationsOf,
} from '../../store/contracts/repo';
import { directWorkflowId, executeDqWorkflow } from '../data-quality/direct-workflow';
import { assertAllowed } from '../governance/access';
import { currentCaller } from '../middleware/auth';
import { conflict, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { tableFacts } from './generate';
import { syncContractSchedule } from './schedule';
import {
  assertValidDocument,
  contractView,
  createDraft,
  documentView,
  parseDocumentYaml,
  parseIdParam,
  requireContract,
  updateDraft,
} from './service';

const O = '/governance/odcs';
const byId = { params: ContractIdParamsSchema };
const catalogOf = (fqn: string) => fqn.split('.')[0];
const schemaOf = (fqn: string) => fqn.split('.')[1];

/**
 * ODCS v3 data contracts (`/api/governance/odcs`, also without `/api`): import, generate from a table, validate
 * against a table's current schema and data, drafts changed by PUT, publish as immutable versions (steward),
 * attach to tables (validated at clone time and on the contract's schedule), detach or archive (admin).
 */
export const contractRoutes = defineRoutes({
  name: 'contracts',
  tags: ['contracts'],
  mounts: ['/api', '/'],
  routes: [
    route({
      method: 'get',
      path: O,
      summary: 'Data contracts by name (status, versions, attachments)',
      response: { description: 'Contracts', schema: z.array(ContractViewSchema) },
      handler: async ({ deps }) => Promise.all((await listContracts(deps.store.db)).map((r) => contractView(deps, r))),
    }),
    route({
      method: 'post',
      path: `${O}/import`,
      summary: 'Import an ODCS YAML document as a draft (validated against the ODCS JSON Schema)',
      request: { body: ContractImportSchema },
      response: { status: 201, description: 'The draft', schema: ContractDocumentViewSchema },
      errors: { 409: 'The contract already has a draft', 422: 'Not a valid ODCS document (details name the path)' },
      handler: async ({ deps, input: { body } }) => {
        const field = body.yaml ? 'body.yaml' : 'body.yaml_content';
        return createDraft(deps, parseDocumentYaml((body.yaml ?? body.yaml_content)!, field), currentCaller().name);
      },
    }),
    route({
      method: 'post',
      path: `${O}/generate`,
      summary:
        'Generate a draft contract from a table (quality rules, profiling, lineage, SLA, tags, properties, masks, row filters, history)',
      request: { body: ContractGenerateSchema },
      response: { status: 201, description: 'The draft contract', schema: ContractDocumentViewSchema },
      errors: { 404: 'No such table', 409: 'The contract already has a draft' },
      handler: async ({ deps, input: { body } }) => {
        const caller = currentCaller();
        await assertAllowed(deps, caller, { operation: 'read', source: body.catalog, schemas: [body.schema] });
        const ws = await deps.workspaces.default();
        const ref = { catalog: body.catalog, schema: body.schema, name: body.table };
        const facts = await tableFacts(deps, ws, ref, body.options);
        const name = body.name ?? body.table;
        const existing = await getContract(deps.store.db, name);
        const doc = generateContract(facts, body.options, name, nextVersion(existing?.latestVersion ?? null));
        if (body.save) return createDraft(deps, doc, caller.name, name);
        assertValidDocument(doc);
        const settings = contractSettings(doc);
        return {
          name,
          status: 'draft' as const,
          draft_id: doc.id,
          latest_version: existing?.latestVersion ?? null,
          versions: [],
          attached_to: [],
          schedule: settings.schedule,
          enforcement_endpoint: settings.enforcementEndpoint,
          severity: settings.severity,
          created_by: caller.name,
          updated_by: caller.name,
          updated_at: new Date().toISOString(),
          id: doc.id,
          version: doc.id.split('@')[1],
          immutable: false,
          document: doc,
        };
      },
    }),
    route({
      method: 'get',
      path: `${O}/:id`,
      summary: 'A contract document: a version (name@major.minor) or, by name, the newest published (else the draft)',
      request: byId,
      response: { description: 'The document', schema: ContractDocumentViewSchema },
      errors: { 404: 'No such contract or version' },
      handler: async ({ deps, input: { params } }) => documentView(deps, params.id),
    }),
    route({
      method: 'get',
      path: `${O}/:id/validations`,
      summary: 'Stored validations of a contract, newest first',
      request: byId,
      response: { description: 'Validations', schema: z.array(ValidationRecordSchema) },
      errors: { 404: 'No such contract' },
      handler: async ({ deps, input: { params } }) => {
        const { name } = parseIdParam(params.id);
        await requireContract(deps, name);
        return (await validationsOf(deps.store.db, { name })).map((v) => ({
          validation_id: v.id,
          contract_id: v.contractId,
          version: v.version,
          table_fqn: v.tableFqn,
          status: v.status,
          severity: v.severity,
          trigger: v.trigger,
          job_id: v.jobId,
          violation_count: v.violationCount,
          sections: v.sections,
          created_by: v.createdBy,
          created_at: v.createdAt.toISOString(),
        }));
      },
    }),
    route({
      method: 'post',
      path: `${O}/validate/:id`,
      summary: "Validate a contract against its tables' current schema and data; non-success means drift",
      request: { ...byId, body: ValidateBodySchema },
      response: { description: 'A result per table and section', schema: ValidationResultSchema },
      errors: {
        404: 'No such contract or table',
        422: 'The contract names no table',
        503: 'Temporal is not configured',
      },
      handler: async ({ deps, input: { params, body } }) => {
        const caller = currentCaller();
        const { name, version } = parseIdParam(params.id);
        const row = await requireContract(deps, name);
        if (row.status === 'archived') throw conflict(`Contract ${name} is archived`);
        if (body.table_fqn)
          await assertAllowed(
            deps,
            caller,
            { operation: 'validate', source: catalogOf(body.table_fqn), schemas: [schemaOf(body.table_fqn)] },
            'body.table_fqn',
          );
        const input: ContractValidateInput = {
          name,
          ...(version ? { version } : {}),
          ...(body.table_fqn ? { tableFqn: body.table_fqn } : {}),
          trigger: 'api',
          by: caller.name,
        };
        return executeDqWorkflow(deps, 'contractValidationWorkflow', directWorkflowId(`contract-${name}`), input);
      },
    }),
    route({
      method: 'put',
      path: `${O}/:id`,
      summary: 'Replace the draft of a contract (published versions never change: 409)',
      request: { ...byId, body: ContractUpdateSchema },
      response: { description: 'The draft', schema: ContractDocumentViewSchema },
      errors: { 404: 'No such contract', 409: 'Not a draft', 422: 'Not a valid ODCS document' },
      handler: async ({ deps, input: { params, body } }) => {
        const raw = body.document ?? parseDocumentYaml(body.yaml!, 'body.yaml');
        return updateDraft(deps, params.id, raw, currentCaller().name);
      },
    }),
    route({
      method: 'post',
      path: `${O}/:id/publish`,
      summary: 'Publish the draft as a new immutable version (1.0, then 1.1, …); earlier versions stay readable',
      role: 'steward',
      request: byId,
      response: { description: 'The published version', schema: ContractDocumentViewSchema },
      errors: { 404: 'No such contract', 409: 'No draft to publish' },
      handler: async ({ deps, input: { params } }) => {
        const by = currentCaller().name;
        const { name, version } = parseIdParam(params.id);
        const row = await requireContract(deps, name);
        const draftId = row.draft ? String(row.draft.id) : null;
        if (!draftId || (version && `${name}@${version}` !== draftId))
          throw conflict(
            version && !draftId?.endsWith(`@${version}`)
              ? `Contract ${name}@${version} is not a draft; published versions never change`
              : `Contract ${name} has no draft to publish`,
          );
        const v = draftId.split('@')[1];
        const doc = stamp(row.draft!, name, v, 'active');
        assertValidDocument(doc);
        if (!(await publishDraft(deps.store.db, name, v, doc, by)))
          throw conflict(`Contract ${name}: the draft changed or was published meanwhile`);
        await syncContractSchedule(deps, name, contractSettings(doc).schedule);
        return documentView(deps, doc.id);
      },
    }),
    route({
      method: 'post',
      path: `${O}/:id/attach`,
      summary: 'Attach a contract to a table: validated there after each clone and on the contract schedule',
      request: { ...byId, body: AttachSchema },
      response: { description: 'The contract', schema: ContractViewSchema },
      errors: { 404: 'No such contract or table', 409: 'The contract is archived' },
      handler: async ({ deps, input: { params, body } }) => {
        const caller = currentCaller();
        const { name } = parseIdParam(params.id);
        const row = await requireContract(deps, name);
        if (row.status === 'archived') throw conflict(`Contract ${name} is archived`);
        await assertAllowed(
          deps,
          caller,
          { operation: 'validate', source: catalogOf(body.table_fqn), schemas: [schemaOf(body.table_fqn)] },
          'body.table_fqn',
        );
        const ws = await deps.workspaces.default();
        const exists = await ws.tableExists(parseFqn(body.table_fqn)).catch((err: unknown) => {
          if (isPlatformError(err) && err.code === 'NOT_FOUND') return false;
          throw err;
        });
        if (!exists) throw notFound(`No table ${body.table_fqn}`);
        await attach(deps.store.db, name, body.table_fqn, caller.name);
        return contractView(deps, (await getContract(deps.store.db, name))!);
      },
    }),
    route({
      method: 'delete',
      path: `${O}/:id`,
      summary: 'Detach a contract (from ?table_fqn or every table); a contract attached nowhere is archived',
      request: { ...byId, query: z.object({ table_fqn: AttachSchema.shape.table_fqn.optional() }) },
      response: { description: 'What was done', schema: DeleteResultSchema },
      errors: { 404: 'No such contract, or not attached to that table' },
      handler: async ({ deps, input: { params, query } }) => {
        const by = currentCaller().name;
        const { name } = parseIdParam(params.id);
        await requireContract(deps, name);
        const detached = await detach(deps.store.db, name, query.table_fqn);
        if (query.table_fqn && detached.length === 0)
          throw notFound(`Contract ${name} is not attached to ${query.table_fqn}`);
        if (detached.length)
          return {
            name,
            action: 'detached' as const,
            detached,
            status: (await requireContract(deps, name)).status as 'active',
          };
        await setContractStatus(deps.store.db, name, 'archived', by);
        await syncContractSchedule(deps, name, null);
        return { name, action: 'archived' as const, detached: [], status: 'archived' as const };
      },
    }),
  ],
});

export type { OdcsDocument };
