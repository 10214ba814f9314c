import { z } from 'zod';
import { normaliseAlias, validOn } from '../../activities/mdm/logic/reference';
import {
  RefCodeBodySchema,
  RefCodeParamsSchema,
  RefCodePatchSchema,
  RefCodeViewSchema,
  RefDomainParamsSchema,
  RefDomainSummarySchema,
  RefDomainViewSchema,
  RefImportBodySchema,
  RefImportResultSchema,
  RefResolveQuerySchema,
  RefResolveResultSchema,
} from '../../schemas/mdm-steward';
import { recordMdmAudit } from '../../store/mdm/repo';
import { aliasOwners, getCode, getDomain, listCodes, listDomains } from '../../store/mdm/reference';
import { callerOf } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';
import { route } from '../middleware/route';
import {
  checkCode,
  codeView,
  ensureBuiltins,
  importCsv,
  problemError,
  publishMapping,
  saveCode,
} from './reference-service';

const today = () => new Date().toISOString().slice(0, 10);
const P = '/mdm/reference-data';

async function readCsv(req: import('express').Request, body: { csv?: string }): Promise<string> {
  if (req.is('text/csv') || req.is('text/plain')) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  if (typeof body.csv === 'string') return body.csv;
  throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the CSV as text/csv, or as JSON {"csv": "…"}', [
    { path: 'body', message: 'no CSV' },
  ]);
}

/**
 * Reference data (`/mdm/reference-data`): domains of codes with aliases, a parent and validity; the built-in
 * ISO 3166-1 and ISO 4217 domains; CSV import; and a SQL mapping table of normalised aliases in `<mdm.catalog>.mdm`.
 */
export const referenceRoutes = [
  route({
    method: 'get',
    path: P,
    summary: 'Reference data domains (the built-in ISO 3166-1 and ISO 4217 included)',
    response: { description: 'Domains', schema: z.array(RefDomainSummarySchema) },
    handler: async ({ deps }) => {
      await ensureBuiltins(deps.store.db);
      return (await listDomains(deps.store.db)).map((d) => ({
        name: d.name,
        description: d.description,
        builtin: d.builtin,
        code_count: d.codeCount,
      }));
    },
  }),
  route({
    method: 'get',
    path: `${P}/:domain`,
    summary: 'A domain with its codes',
    request: { params: RefDomainParamsSchema },
    response: { description: 'The domain', schema: RefDomainViewSchema },
    errors: { 404: 'No such domain' },
    handler: async ({ deps, input: { params } }) => {
      await ensureBuiltins(deps.store.db);
      const d = await getDomain(deps.store.db, params.domain);
      if (!d) throw notFound(`No reference data domain ${params.domain}`);
      const codes = await listCodes(deps.store.db, d.name);
      const day = today();
      return {
        name: d.name,
        description: d.description,
        builtin: d.builtin,
        code_count: codes.length,
        codes: codes.map((c) => codeView(c, day)),
      };
    },
  }),
  route({
    method: 'get',
    path: `${P}/:domain/resolve`,
    summary: 'The code a value stands for: "U.S.A.", "USA" and "US" all resolve to US',
    request: { params: RefDomainParamsSchema, query: RefResolveQuerySchema },
    response: { description: 'The code, or null', schema: RefResolveResultSchema },
    errors: { 404: 'No such domain' },
    handler: async ({ deps, input: { params, query } }) => {
      await ensureBuiltins(deps.store.db);
      if (!(await getDomain(deps.store.db, params.domain))) throw notFound(`No reference data domain ${params.domain}`);
      const normalised = normaliseAlias(query.value);
      const code = (await aliasOwners(deps.store.db, params.domain, [normalised])).get(normalised) ?? null;
      const row = code ? await getCode(deps.store.db, params.domain, code) : undefined;
      const valid = row ? validOn({ valid_from: row.validFrom, valid_to: row.validTo }, query.as_of ?? today()) : false;
      return { domain: params.domain, value: query.value, normalised, code, valid };
    },
  }),
  route({
    method: 'post',
    path: `${P}/:domain`,
    summary: 'Add a code (the domain is created with its first code); a code or alias another code has is a 409',
    request: { params: RefDomainParamsSchema, body: RefCodeBodySchema },
    response: { status: 201, description: 'The code', schema: RefCodeViewSchema },
    errors: { 409: 'The code exists, or an alias belongs to another code', 422: 'No such parent, or bad dates' },
    handler: async ({ deps, input: { params, body }, req }) => {
      const db = deps.store.db;
      await ensureBuiltins(db);
      if (await getCode(db, params.domain, body.code))
        throw new HttpError(409, 'CONFLICT', `Code ${body.code} exists in ${params.domain}: PATCH it`, [
          { path: 'body.code', message: 'exists' },
        ]);
      const c = {
        code: body.code,
        description: body.description ?? null,
        aliases: body.aliases ?? [],
        parent: body.parent ?? null,
        valid_from: body.valid_from ?? null,
        valid_to: body.valid_to ?? null,
      };
      const { problems, aliases } = await checkCode(db, params.domain, c);
      if (problems.length) throw problemError(problems);
      const row = await saveCode(db, params.domain, c, aliases);
      await publishMapping(deps);
      await recordMdmAudit(db, {
        actor: callerOf(req).name,
        action: 'reference_code_added',
        objectType: 'reference_code',
        objectId: `${params.domain}/${body.code}`,
      });
      return codeView(row, today());
    },
  }),
  route({
    method: 'patch',
    path: `${P}/:domain/:code`,
    summary: 'Change a code (description, aliases, parent, validity)',
    request: { params: RefCodeParamsSchema, body: RefCodePatchSchema },
    response: { description: 'The code', schema: RefCodeViewSchema },
    errors: { 404: 'No such code', 409: 'An alias belongs to another code', 422: 'No such parent, or bad dates' },
    handler: async ({ deps, input: { params, body }, req }) => {
      const db = deps.store.db;
      await ensureBuiltins(db);
      const row = await getCode(db, params.domain, params.code);
      if (!row) throw notFound(`No code ${params.code} in ${params.domain}`);
      const c = {
        code: row.code,
        description: body.description !== undefined ? body.description : row.description,
        aliases: body.aliases ?? row.aliases,
        parent: body.parent !== undefined ? body.parent : row.parent,
        valid_from: body.valid_from !== undefined ? body.valid_from : row.validFrom,
        valid_to: body.valid_to !== undefined ? body.valid_to : row.validTo,
      };
      const { problems, aliases } = await checkCode(db, params.domain, c);
      if (problems.length) throw problemError(problems);
      const saved = await saveCode(db, params.domain, c, aliases);
      await publishMapping(deps);
      await recordMdmAudit(db, {
        actor: callerOf(req).name,
        action: 'reference_code_updated',
        objectType: 'reference_code',
        objectId: `${params.domain}/${params.code}`,
        details: { changed: Object.keys(body) },
      });
      return codeView(saved, today());
    },
  }),
  route({
    method: 'post',
    path: `${P}/:domain/import`,
    summary:
      'Import codes from CSV (text/csv, RFC 4180: header code, description, aliases, valid_from [, valid_to, parent]; ' +
      'a quoted alias list separated by commas); every line is reported',
    request: { params: RefDomainParamsSchema, body: RefImportBodySchema },
    response: { description: 'Per line: created, updated, conflict or invalid', schema: RefImportResultSchema },
    errors: { 415: 'Neither text/csv nor {csv}', 422: 'The CSV cannot be read or has no code column' },
    handler: async ({ deps, input: { params, body }, req }) => {
      await ensureBuiltins(deps.store.db);
      const text = await readCsv(req, body);
      const lines = await importCsv(deps.store.db, params.domain, text);
      const mapping = await publishMapping(deps);
      const count = (s: string) => lines.filter((l) => l.status === s).length;
      await recordMdmAudit(deps.store.db, {
        actor: callerOf(req).name,
        action: 'reference_imported',
        objectType: 'reference_domain',
        objectId: params.domain,
        details: {
          created: count('created'),
          updated: count('updated'),
          failed: lines.length - count('created') - count('updated'),
        },
      });
      return {
        domain: params.domain,
        created: count('created'),
        updated: count('updated'),
        failed: lines.length - count('created') - count('updated'),
        lines,
        mapping_table: mapping.table,
      };
    },
  }),
];
