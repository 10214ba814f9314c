import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { ActionButton } from '../quality/form';
import { Status } from '../quality/status';

/** A 0–1 score in words with a symbol (met from 90 %, partial from 60 %), or "not assessed" (never 0). */
function Score({ score }: { score: number | null }) {
  if (score === null) return <span data-status="none">– not assessed</span>;
  const v = Math.round(score * 1000) / 10;
  const level = score >= 0.9 ? 'met' : score >= 0.6 ? 'partial' : 'gap';
  return (
    <span data-status={level}>
      <span aria-hidden="true">{level === 'met' ? '✓' : level === 'partial' ? '◐' : '✕'}</span> {v} %
    </span>
  );
}

type GapFilter = 'all' | 'gap' | 'partial';

/** The selected framework: assess it now, its gaps from the latest assessment, and its score over time. */
function FrameworkView({ id, name }: { id: string; name: string }) {
  const { api } = useConsole();
  const client = useQueryClient();
  const [filter, setFilter] = useState<GapFilter>('all');
  const path = { params: { path: { framework_name: id } } };
  const gaps = useQuery({
    queryKey: ['compliance-gaps', id, filter],
    queryFn: () =>
      unwrap(
        api.client.GET('/api/compliance/frameworks/{framework_name}/gaps', {
          params: { path: { framework_name: id }, query: { status: filter } },
        }),
      ),
  });
  const trend = useQuery({
    queryKey: ['compliance-trend', id],
    queryFn: () => unwrap(api.client.GET('/api/compliance/frameworks/{framework_name}/trend', path)),
  });
  const assess = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/compliance/frameworks/{framework_name}/assess', path)),
    onSuccess: () => {
      for (const k of ['compliance-frameworks', 'compliance-gaps', 'compliance-trend'])
        void client.invalidateQueries({ queryKey: [k] });
    },
  });
  const a = assess.data;
  return (
    <>
      <h2>{name}</h2>
      <ActionButton
        operation="post /api/compliance/frameworks/{framework_name}/assess"
        onClick={() => assess.mutate()}
        disabled={assess.isPending}
      >
        {assess.isPending ? 'Assessing…' : `Assess ${name} now`}
      </ActionButton>
      {assess.isError && <ErrorView error={assess.error} requiredRole="admin" onRetry={() => assess.mutate()} />}
      {a && (
        <div role="status" data-testid="assessment">
          <p>
            <Score score={a.score} /> — {a.met_controls} met, {a.partial_controls} partial, {a.gap_controls} gaps of{' '}
            {a.total_controls} controls ({a.framework_name} {a.framework_version},{' '}
            {new Date(a.assessed_at).toLocaleString()})
          </p>
          <div className="scroll" role="region" tabIndex={0} aria-label="Evidence per control">
            <table>
              <caption className="skip-link">Evidence per control</caption>
              <thead>
                <tr>
                  {['Control', 'Category', 'Status', 'Evidence'].map((h) => (
                    <th scope="col" key={h}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {a.evidence.map((e) => (
                  <tr key={e.control_id}>
                    <td>
                      {e.control_id} {e.control_name}
                    </td>
                    <td>{e.category}</td>
                    <td>
                      <Status value={e.status} />
                    </td>
                    <td>
                      {e.sources.map((s) => (
                        <div key={s.evidence_id}>
                          <Status value={s.state} /> {s.evidence_type}: {s.evidence_summary}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
      <h3>Gaps of the latest assessment</h3>
      <label className="field">
        Show
        <select value={filter} onChange={(e) => setFilter(e.target.value as GapFilter)}>
          <option value="all">gaps and partial controls</option>
          <option value="gap">gaps only</option>
          <option value="partial">partial only</option>
        </select>
      </label>
      {gaps.isError && <ErrorView error={gaps.error} onRetry={() => void gaps.refetch()} />}
      {gaps.data &&
        (gaps.data.length === 0 ? (
          <p>No gap recorded (or not assessed yet).</p>
        ) : (
          <table data-testid="compliance-gaps">
            <caption className="skip-link">Gap records</caption>
            <thead>
              <tr>
                {['Control', 'Status', 'Evidence type', 'Evidence', 'State'].map((h) => (
                  <th scope="col" key={h}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {gaps.data.map((g) => (
                <tr key={g.evidence_id}>
                  <td>
                    {g.control_id} {g.control_name}
                  </td>
                  <td>
                    <Status value={g.status} />
                  </td>
                  <td>{g.evidence_type}</td>
                  <td>{g.evidence_summary}</td>
                  <td>
                    <Status value={g.state} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <h3>Score over time</h3>
      {trend.isError && <ErrorView error={trend.error} onRetry={() => void trend.refetch()} />}
      {trend.data &&
        (trend.data.length === 0 ? (
          <p>Not assessed yet.</p>
        ) : (
          <table data-testid="compliance-trend">
            <caption className="skip-link">Scores, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Assessed</th>
                <th scope="col">Score</th>
              </tr>
            </thead>
            <tbody>
              {trend.data.map((t) => (
                <tr key={t.assessed_at}>
                  <td>{new Date(t.assessed_at).toLocaleString()}</td>
                  <td>
                    <Score score={t.score} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </>
  );
}

/** /compliance/:framework (its id, as the API names it): frameworks with their latest score; a framework's assessment, gaps and trend. */
export function CompliancePage() {
  const { api } = useConsole();
  const framework = useParams().framework ?? '';
  const list = useQuery({
    queryKey: ['compliance-frameworks'],
    queryFn: () => unwrap(api.client.GET('/api/compliance/frameworks')),
  });
  return (
    <section aria-labelledby="compliance-title">
      <h1 id="compliance-title">Compliance</h1>
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <p role="status">Loading frameworks…</p>}
      {list.data && (
        <table data-testid="compliance-frameworks">
          <caption className="skip-link">Compliance frameworks</caption>
          <thead>
            <tr>
              {['Framework', 'Version', 'Controls', 'Score', 'Last assessed', 'Kind'].map((h) => (
                <th scope="col" key={h}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.data.map((f) => (
              <tr key={f.id} aria-current={f.id.toLowerCase() === framework.toLowerCase() ? 'true' : undefined}>
                <td>
                  <Link to={`/compliance/${encodeURIComponent(f.id)}`}>{f.name}</Link>
                </td>
                <td>{f.version}</td>
                <td>{f.control_count}</td>
                <td>
                  <Score score={f.score} />
                </td>
                <td>{f.last_assessed ? new Date(f.last_assessed).toLocaleString() : 'never'}</td>
                <td>{f.builtin ? 'built in' : 'custom'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {framework && (
        <FrameworkView
          key={framework}
          id={framework}
          name={list.data?.find((f) => f.id.toLowerCase() === framework.toLowerCase())?.name ?? framework}
        />
      )}
    </section>
  );
}
