import { z } from 'zod';
import {
  GENERATOR_KINDS,
  GENERATOR_LIMITS,
  GENERATOR_TYPES,
  GenerateAcceptedSchema,
  GeneratePreviewSchema,
  GeneratorTypesSchema,
  generateBodySchema,
  type GenerateBody,
  type GenerateInput,
  type GeneratorKind,
} from '../../schemas/generators';
import {
  catalogTableName,
  countsOutsideTypes,
  directTableName,
  preview,
  resolveCounts,
  TYPE_FACTS,
} from '../../activities/generators/logic/plan';
import { createUsage } from '../../store/ai/usage';
import type { AppDeps } from '../deps';
import { assertAllowed } from '../governance/access';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { callerOf } from '../middleware/auth';
import { HttpError, badRequest } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { generateJobType } from './job-type';
import { installCommand, libraryAvailable } from './libraries';

/** The request resolved into the workflow input (types, counts per type, as_of); 400 for counts of other types. */
export function resolveRequest(kind: GeneratorKind, body: GenerateBody, jobId: string): GenerateInput {
  const outside = countsOutsideTypes(body.types, body.counts as Record<string, unknown> | undefined);
  if (outside.length > 0)
    throw badRequest(`counts names types the request does not ask for: ${outside.join(', ')}`, [
      { path: 'body.counts', message: `not in types: ${outside.join(', ')}` },
    ]);
  return {
    jobId,
    kind,
    catalog: body.catalog,
    schema: body.schema,
    volume: body.volume,
    destination: body.destination,
    counts: resolveCounts(kind, body.types, body.counts as Record<string, number> | undefined),
    seed: body.seed,
    asOf: body.as_of ?? new Date().toISOString().slice(0, 10),
    ifExists: body.if_exists,
    aiTokenBudget: body.ai_token_budget,
    linesPerFile: body.lines_per_file ?? 1_000,
    daysBack: body.days_back ?? 7,
  };
}

/** 503 before anything is written when a type asked for needs a library this service does not have. */
function assertLibraries(input: GenerateInput) {
  const missing = Object.keys(input.counts)
    .map((type) => ({ type, lib: TYPE_FACTS[type].library }))
    .filter((x): x is { type: string; lib: string } => x.lib !== null && !libraryAvailable(x.lib));
  if (missing.length === 0) return;
  const commands = [...new Set(missing.map((m) => installCommand(m.lib)))];
  throw new HttpError(
    503,
    'LIBRARY_MISSING',
    `${missing.map((m) => `${m.type} needs ${m.lib}`).join('; ')}, not installed: run ${commands.join(' && ')}`,
    missing.map((m) => ({ path: `body.types.${m.type}`, message: `install with: ${installCommand(m.lib)}` })),
  );
}

function kindRoutes(kind: GeneratorKind) {
  const Body = generateBodySchema(kind);
  const base = `/generate/demo-${kind}`;
  return [
    route({
      method: 'get',
      path: `${base}/types`,
      summary: `The ${kind} generator's types, each with its optional library and whether it is installed`,
      response: { description: 'Types', schema: GeneratorTypesSchema },
      handler: async () => ({
        kind,
        path: `/Volumes/<catalog>/<schema>/<volume>/${kind}/<type>/`,
        catalog_table: catalogTableName(kind),
        direct_table: directTableName(kind),
        types: (GENERATOR_TYPES[kind] as readonly string[]).map((type) => {
          const f = TYPE_FACTS[type];
          const available = f.library === null || libraryAvailable(f.library);
          return {
            type,
            extension: f.extension,
            mime_type: f.mime,
            library: f.library,
            available,
            install: available || !f.library ? null : installCommand(f.library),
            max_per_request: GENERATOR_LIMITS[kind].max,
          };
        }),
      }),
    }),
    route({
      method: 'post',
      path: `${base}/preview`,
      role: 'viewer',
      summary: `Files, bytes, rows and a rough time a ${kind} generator request would take; writes nothing`,
      request: { body: Body },
      response: { description: 'The estimate', schema: GeneratePreviewSchema },
      handler: async ({ input }) => preview(kind, resolveRequest(kind, input.body as GenerateBody, 'preview')),
    }),
    route({
      method: 'post',
      path: base,
      summary: `Generates seeded demo ${kind} into a volume and/or a table as a job (job type generate)`,
      request: { body: Body },
      response: { description: 'The job was queued', schema: GenerateAcceptedSchema, status: 202 },
      errors: {
        403: 'An access policy refuses writing the catalog (names the rule)',
        404: 'No such catalog',
        409: 'if_exists is fail and the table or the files exist',
        429: 'Too many generator jobs waiting',
        503: 'A type asked for needs an optional library that is not installed (the message has the install command)',
      },
      handler: async ({ deps, input, req }) => {
        const body = input.body as GenerateBody;
        const jobId = newJobId('generate');
        const resolved = resolveRequest(kind, body, jobId);
        assertLibraries(resolved);
        await assertAllowed(
          deps,
          callerOf(req),
          { operation: 'write', destination: body.catalog, schemas: [body.schema] },
          'body.catalog',
        );
        await checkTarget(deps, resolved);
        // The job's AI usage row: its budget (0 disables AI); text is template text, so nothing is charged.
        const usage = await createUsage(deps.store.db, {
          id: `usage-${jobId}`,
          route: `POST /api/generate/demo-${kind}`,
          budget: resolved.aiTokenBudget,
          jobId,
        });
        await submitJob(deps, generateJobType, {
          jobId,
          input: { ...resolved, aiUsageId: usage.id },
          createdAt: new Date(),
          row: { request: { ...body, kind, as_of: resolved.asOf }, destinationCatalog: body.catalog },
        });
        return { job_id: jobId, status: 'queued', message: `generate job ${jobId} queued` };
      },
    }),
  ];
}

/** The catalog must exist; with if_exists fail an existing table (or files of the kind) is a 409 now. */
async function checkTarget(deps: AppDeps, input: GenerateInput) {
  const ws = await deps.workspaces.default();
  await ws.getCatalog(input.catalog);
  if (input.ifExists !== 'fail') return;
  const schemaExists = (await ws.listSchemas(input.catalog)).some((s) => s.name === input.schema);
  if (!schemaExists) return;
  if (input.destination !== 'volume') {
    const name = input.destination === 'direct_table' ? directTableName(input.kind) : catalogTableName(input.kind);
    if (await ws.tableExists({ catalog: input.catalog, schema: input.schema, name }))
      throw new HttpError(
        409,
        'ALREADY_EXISTS',
        `${input.catalog}.${input.schema}.${name} exists and if_exists is fail`,
        [{ path: 'body.if_exists', message: 'use replace or append' }],
      );
  }
}

export const generatorRoutes = defineRoutes({
  name: 'generators',
  routes: GENERATOR_KINDS.flatMap(kindRoutes),
});

export type GenerateAccepted = z.infer<typeof GenerateAcceptedSchema>;
