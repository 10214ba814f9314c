import type { Response } from 'express';
import type { z } from 'zod';
import type { Dossier, ReportRequestSchema } from '../../schemas/compliance';
import { evidenceOf, latestAssessment } from '../../store/compliance/repo';
import type { AppDeps } from '../deps';
import { isPluginEnabled } from '../governance/plugins';
import { HttpError } from '../middleware/http-error';
import { renderDossierPdf } from './pdf';
import { assessmentView, frameworkNamed, gapRecords, trend } from './service';

type ReportRequest = z.infer<typeof ReportRequestSchema>;

/** A date (`2026-11-01`) starts at 00:00 UTC; as a period end it covers that whole day. */
function bound(text: string, end: boolean): Date {
  const d = new Date(text);
  if (end && /^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(d.getTime() + 86_400_000 - 1);
  return d;
}

/** The dossier of the framework's newest assessment inside the period, with the period's trend and its gaps. */
export async function buildDossier(deps: AppDeps, body: ReportRequest, now: Date): Promise<Dossier> {
  const doc = await frameworkNamed(deps, body.framework_id);
  const since = bound(body.period_start, false);
  const until = bound(body.period_end, true);
  if (until < since)
    throw new HttpError(422, 'INVALID_PERIOD', 'period_end is before period_start', [
      { path: 'body.period_end', message: 'before period_start' },
    ]);
  const last = await latestAssessment(deps.store.db, doc.id, { since, until });
  if (!last)
    throw new HttpError(
      422,
      'NO_ASSESSMENT',
      `No assessment of ${doc.id} between ${since.toISOString()} and ${until.toISOString()}; POST /api/compliance/frameworks/${doc.id}/assess first`,
      [{ path: 'body.period_start', message: 'no assessment in the period' }],
    );
  const evidence = await evidenceOf(deps.store.db, last.assessmentId);
  return {
    framework_id: doc.id,
    framework_name: doc.name,
    framework_version: doc.version,
    period_start: since.toISOString(),
    period_end: until.toISOString(),
    generated_at: now.toISOString(),
    assessment: assessmentView(last, evidence),
    trend: await trend(deps, doc, { since, until }),
    gaps: gapRecords(evidence, 'all'),
  };
}

/** JSON as is; PDF rendered with pdfkit (when the compliance_pdf_reports plugin is on) as an attachment. */
export async function sendDossier(deps: AppDeps, res: Response, d: Dossier, format: 'PDF' | 'JSON') {
  if (format === 'JSON') return d;
  if (!(await isPluginEnabled(deps, 'compliance_pdf_reports')))
    throw new HttpError(503, 'PLUGIN_DISABLED', 'PDF reports are switched off (plugin compliance_pdf_reports)');
  const pdf = await renderDossierPdf(d);
  const name = `${d.framework_id}-dossier-${d.generated_at.slice(0, 10)}.pdf`;
  res.type('application/pdf').setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.send(pdf);
  return undefined;
}
