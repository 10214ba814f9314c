import { REPORT_SECTIONS, overallScore, sectionStatus, type CatalogFacts } from '../../activities/compliance/logic';
import { isPlatformError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { z } from 'zod';
import type { GovernanceReportRequestSchema, GovernanceReportSchema } from '../../schemas/compliance';
import { notFound } from '../middleware/http-error';

const fqnOf = (r: { catalog: string; schema: string; name: string }) => `${r.catalog}.${r.schema}.${r.name}`;

/** At most this many tables per catalog are read (owner, tags, column tags, masks), so a report stays quick. */
export const MAX_TABLES_PER_CATALOG = 2000;

async function catalogFacts(ws: Workspace, catalog: string): Promise<CatalogFacts> {
  const facts: CatalogFacts = { catalog, tables: [], grants: [] };
  for (const g of await ws.getGrants({ type: 'CATALOG', catalog }))
    facts.grants.push({ securable: catalog, principal: g.principal, privileges: g.privileges });
  for (const s of await ws.listSchemas(catalog)) {
    if (s.name === 'information_schema') continue;
    for (const g of await ws.getGrants({ type: 'SCHEMA', catalog, schema: s.name }))
      facts.grants.push({ securable: `${catalog}.${s.name}`, principal: g.principal, privileges: g.privileges });
    for (const t of await ws.listTables(catalog, s.name)) {
      if (facts.tables.length >= MAX_TABLES_PER_CATALOG) return facts;
      const ref = { catalog, schema: s.name, name: t.name };
      const [tags, columnTags, masks, described, grants] = await Promise.all([
        ws.getTags({ type: 'TABLE', ...ref }),
        ws.getColumnTags(ref),
        ws.getColumnMasks(ref),
        ws.describeTable(ref),
        ws.getGrants({ type: 'TABLE', ...ref }),
      ]);
      for (const g of grants)
        facts.grants.push({ securable: fqnOf(ref), principal: g.principal, privileges: g.privileges });
      const masked = new Set(masks.map((m) => m.column.toLowerCase()));
      facts.tables.push({
        fqn: fqnOf(ref),
        owner: t.owner,
        tags,
        columns: described.columns.map((c) => ({
          name: c.name,
          tags: columnTags[c.name] ?? {},
          masked: masked.has(c.name.toLowerCase()),
        })),
      });
    }
  }
  return facts;
}

/** The catalog-level governance report (one catalog, or every catalog of the workspace) with section scores. */
export async function governanceReport(
  ws: Workspace,
  req: z.infer<typeof GovernanceReportRequestSchema>,
  now: Date,
): Promise<z.input<typeof GovernanceReportSchema>> {
  let catalogs: string[];
  if (req.catalog) {
    await ws.getCatalog(req.catalog).catch((err: unknown) => {
      if (isPlatformError(err) && err.code === 'NOT_FOUND') throw notFound(`No catalog ${req.catalog}`);
      throw err;
    });
    catalogs = [req.catalog];
  } else {
    catalogs = (await ws.listCatalogs()).map((c) => c.name).filter((c) => c !== 'system');
  }
  const facts: CatalogFacts[] = [];
  for (const c of catalogs) facts.push(await catalogFacts(ws, c));
  const sections = REPORT_SECTIONS[req.report_type].map((build) => build(facts));
  const overall = overallScore(sections);
  return {
    report_type: req.report_type,
    catalogs,
    generated_at: now.toISOString(),
    overall_score: overall,
    overall_status: sections.length ? sectionStatus(overall) : 'WARNING',
    sections,
  };
}
