import { loadBuiltinFrameworks, parseFrameworkYaml, FrameworkDocumentError } from '../../config/compliance';
import { controlStatus, evidenceState, evidenceSummary, scoreOf } from '../../activities/compliance/logic';
import type {
  Assessment,
  ControlStatus,
  EvidenceState,
  EvidenceType,
  FrameworkDocument,
} from '../../schemas/compliance';
import {
  evidenceOf,
  latestAssessment,
  listCustomFrameworks,
  saveAssessment,
  saveCustomFramework,
  trendOf,
  type AssessmentRow,
  type EvidenceRow,
  type NewEvidenceRow,
} from '../../store/compliance/repo';
import type { AppDeps } from '../deps';
import { currentCaller } from '../middleware/auth';
import { HttpError, conflict, notFound } from '../middleware/http-error';
import { guardUserSql } from '../governance/sql-guard';
import { collect } from './evidence';

let builtins: FrameworkDocument[] | undefined;
const builtinFrameworks = () => (builtins ??= loadBuiltinFrameworks());

/** Built-in frameworks first, then custom ones (a custom id never shadows a built-in: load-template refuses it). */
export async function allFrameworks(deps: AppDeps): Promise<{ doc: FrameworkDocument; builtin: boolean }[]> {
  const custom = (await listCustomFrameworks(deps.store.db)).map((r) => ({
    doc: r.document as unknown as FrameworkDocument,
    builtin: false,
  }));
  return [...builtinFrameworks().map((doc) => ({ doc, builtin: true })), ...custom];
}

/** The framework named (case-insensitive), or 404 listing the known ones. */
export async function frameworkNamed(deps: AppDeps, name: string): Promise<FrameworkDocument> {
  const all = await allFrameworks(deps);
  const found = all.find((f) => f.doc.id.toLowerCase() === name.trim().toLowerCase());
  if (!found) throw notFound(`No compliance framework ${name}; known: ${all.map((f) => f.doc.id).join(', ')}`);
  return found.doc;
}

export async function listFrameworks(deps: AppDeps) {
  return Promise.all(
    (await allFrameworks(deps)).map(async ({ doc, builtin }) => {
      const last = await latestAssessment(deps.store.db, doc.id);
      return {
        id: doc.id,
        name: doc.name,
        version: doc.version,
        control_count: doc.controls.length,
        score: last?.score ?? null,
        last_assessed: last?.assessedAt.toISOString() ?? null,
        builtin,
      };
    }),
  );
}

/** Collects every source's evidence, scores the controls and stores the assessment with its evidence. */
export async function assess(deps: AppDeps, doc: FrameworkDocument, now = new Date()): Promise<Assessment> {
  const evidence: NewEvidenceRow[] = [];
  const statuses: ControlStatus[] = [];
  let position = 0;
  for (const control of doc.controls) {
    const rows: NewEvidenceRow[] = [];
    for (const source of control.evidence_sources) {
      const days = source.freshness_days ?? doc.freshness_days;
      const found = await collect(deps, source, now, days);
      const state = evidenceState(found);
      const summary = evidenceSummary(found.noun, found, days) + (found.reason ? `: ${found.reason}` : '');
      rows.push({
        frameworkId: doc.id,
        controlId: control.control_id,
        controlName: control.title,
        category: control.category,
        status: 'gap',
        evidenceType: source.type,
        source: source as unknown as Record<string, unknown>,
        evidenceCount: found.count,
        freshCount: found.freshCount,
        newestAt: found.newestAt,
        freshnessDays: days,
        state,
        summary,
        position: position++,
        collectedAt: now,
      });
    }
    const status = controlStatus(rows.map((r) => r.state as EvidenceState));
    statuses.push(status);
    evidence.push(...rows.map((r) => ({ ...r, status })));
  }
  const totals = scoreOf(statuses);
  const row = await saveAssessment(
    deps.store.db,
    {
      frameworkId: doc.id,
      frameworkName: doc.name,
      frameworkVersion: doc.version,
      totalControls: totals.total,
      metControls: totals.met,
      partialControls: totals.partial,
      gapControls: totals.gap,
      score: totals.score,
      assessedBy: currentCaller().name,
      assessedAt: now,
    },
    evidence,
  );
  return assessmentView(row, await evidenceOf(deps.store.db, row.assessmentId));
}

/** An assessment as the API returns it: totals, and per control its status and every source's evidence. */
export function assessmentView(a: AssessmentRow, evidence: EvidenceRow[]): Assessment {
  const controls = new Map<string, Assessment['evidence'][number]>();
  for (const e of evidence) {
    const c = controls.get(e.controlId) ?? {
      control_id: e.controlId,
      control_name: e.controlName,
      category: e.category,
      status: e.status as ControlStatus,
      evidence_count: 0,
      sources: [],
    };
    c.evidence_count += e.evidenceCount;
    c.sources.push({
      evidence_id: e.evidenceId,
      evidence_type: e.evidenceType as EvidenceType,
      source: e.source,
      evidence_count: e.evidenceCount,
      fresh_count: e.freshCount,
      newest_at: e.newestAt?.toISOString() ?? null,
      freshness_days: e.freshnessDays,
      state: e.state as EvidenceState,
      evidence_summary: e.summary,
    });
    controls.set(e.controlId, c);
  }
  return {
    assessment_id: a.assessmentId,
    framework_id: a.frameworkId,
    framework_name: a.frameworkName,
    framework_version: a.frameworkVersion,
    total_controls: a.totalControls,
    met_controls: a.metControls,
    partial_controls: a.partialControls,
    gap_controls: a.gapControls,
    score: a.score,
    assessed_at: a.assessedAt.toISOString(),
    assessed_by: a.assessedBy,
    evidence: [...controls.values()],
  };
}

/** Evidence rows of the controls not met in an assessment (status `gap`, `partial` or both), each as a gap record. */
export function gapRecords(evidence: EvidenceRow[], status: 'gap' | 'partial' | 'all') {
  return evidence
    .filter((e) => e.status !== 'met' && (status === 'all' || e.status === status))
    .map((e) => ({
      evidence_id: e.evidenceId,
      framework_id: e.frameworkId,
      control_id: e.controlId,
      control_name: e.controlName,
      evidence_type: e.evidenceType as EvidenceType,
      evidence_summary: e.summary,
      evidence_count: e.evidenceCount,
      state: e.state as EvidenceState,
      status: e.status as ControlStatus,
      collected_at: e.collectedAt.toISOString(),
    }));
}

export async function gapsOf(deps: AppDeps, doc: FrameworkDocument, status: 'gap' | 'partial' | 'all') {
  const last = await latestAssessment(deps.store.db, doc.id);
  if (!last) return [];
  return gapRecords(await evidenceOf(deps.store.db, last.assessmentId), status);
}

export async function trend(deps: AppDeps, doc: FrameworkDocument, range: { since?: Date; until?: Date } = {}) {
  return (await trendOf(deps.store.db, doc.id, range)).map((r) => ({
    score: r.score,
    assessed_at: r.assessedAt.toISOString(),
  }));
}

/**
 * A custom framework from YAML: validated (422 naming each path), its id may not be a built-in's (409), and an
 * existing custom one is replaced only when asked. Every `rtbf_request` filter passes the user-SQL guard.
 */
export async function loadTemplate(deps: AppDeps, yaml: string, replace: boolean) {
  let doc: FrameworkDocument;
  try {
    doc = parseFrameworkYaml(yaml, 'body.yaml');
  } catch (err) {
    if (!(err instanceof FrameworkDocumentError)) throw err;
    const details = err.problems.map((p) => ({ path: `body.yaml.${p.path}`, message: p.message }));
    throw new HttpError(422, 'INVALID_FRAMEWORK', err.message, details);
  }
  if (builtinFrameworks().some((b) => b.id === doc.id))
    throw conflict(`${doc.id} is a built-in framework; give the custom framework another id`);
  for (const [ci, control] of doc.controls.entries())
    for (const [si, s] of control.evidence_sources.entries()) {
      if (s.type !== 'rtbf_request' || !s.filter) continue;
      const [catalog, schema, table] = (s.table ?? '..').split('.');
      await guardUserSql(deps, currentCaller(), {
        sql: s.filter,
        kind: 'predicate',
        field: `body.yaml.controls.${ci}.evidence_sources.${si}.filter`,
        own: s.table ? { catalog, schema, table } : undefined,
      });
    }
  const by = currentCaller().name;
  const saved = await saveCustomFramework(
    deps.store.db,
    {
      frameworkId: doc.id,
      name: doc.name,
      version: doc.version,
      document: doc as unknown as Record<string, unknown>,
      loadedBy: by,
    },
    replace,
  );
  if (!saved) throw conflict(`A custom framework ${doc.id} exists; send replace: true to replace it`);
  return {
    id: doc.id,
    name: doc.name,
    version: doc.version,
    control_count: doc.controls.length,
    score: null,
    last_assessed: null,
    builtin: false,
  };
}
