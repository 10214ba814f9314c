import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';

/** catalog.schema.table → its three parts (names with dots inside are not split further). */
export function partsOf(fullName: string) {
  const [catalog, schema, ...rest] = fullName.split('.');
  return { catalog, schema, table: rest.join('.') };
}

const cell = (v: unknown) =>
  v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Sample tab: up to 20 rows from POST /api/sample (masks and row filters apply server side). */
export function SampleTab({ fullName }: { fullName: string }) {
  const { api } = useConsole();
  const p = partsOf(fullName);
  const q = useQuery({
    queryKey: ['sample', fullName],
    queryFn: () =>
      unwrap(
        api.client.POST('/api/sample', {
          body: { catalog: p.catalog, schema_name: p.schema, table_name: p.table, limit: 20 },
        }),
      ),
  });
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Reading a sample of {fullName}…</p>;
  const s = q.data;
  return (
    <div className="scroll" tabIndex={0} role="region" aria-label="Sample rows">
      <table data-testid="table-sample">
        <caption>
          {s.rows.length} sample row{s.rows.length === 1 ? '' : 's'}
        </caption>
        <thead>
          <tr>
            {s.columns.map((c) => (
              <th scope="col" key={c.name}>
                {c.name} <span className="marker">{c.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {s.rows.map((r, i) => (
            <tr key={i}>
              {s.columns.map((c) => (
                <td key={c.name}>{cell(r[c.name])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Lineage tab: upstream and downstream objects and the edges (views, functions, recorded clones, system lineage). */
export function LineageTab({ fullName }: { fullName: string }) {
  const { api } = useConsole();
  const p = partsOf(fullName);
  const q = useQuery({
    queryKey: ['lineage', fullName],
    queryFn: () => unwrap(api.client.POST('/api/lineage', { body: { catalog: p.catalog, table: fullName } })),
  });
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Reading the lineage of {fullName}…</p>;
  const l = q.data;
  return (
    <div data-testid="table-lineage">
      <div className="cards">
        <section className="card" aria-labelledby="lineage-up">
          <h4 id="lineage-up">Upstream ({l.upstream.length})</h4>
          {l.upstream.length === 0 ? <p>Nothing upstream recorded.</p> : <NameList names={l.upstream} />}
        </section>
        <section className="card" aria-labelledby="lineage-down">
          <h4 id="lineage-down">Downstream ({l.downstream.length})</h4>
          {l.downstream.length === 0 ? <p>Nothing downstream recorded.</p> : <NameList names={l.downstream} />}
        </section>
      </div>
      <p>
        Databricks system lineage:{' '}
        {l.system_lineage.available
          ? 'read'
          : `not available${l.system_lineage.error ? ` (${l.system_lineage.error})` : ''}`}
      </p>
      {l.edges.length > 0 && (
        <table>
          <caption>{l.edges.length} lineage edges</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Target</th>
              <th scope="col">Kind</th>
              <th scope="col">Job</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {l.edges.map((e, i) => (
              <tr key={`${e.source}-${e.target}-${i}`}>
                <td>{e.source}</td>
                <td>{e.target}</td>
                <td>{e.kind}</td>
                <td>{e.job_id ?? ''}</td>
                <td>{e.at ? new Date(e.at).toLocaleString() : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function NameList({ names }: { names: string[] }) {
  return (
    <ul>
      {names.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
