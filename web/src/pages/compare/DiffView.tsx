import type { components, paths } from '../../api/schema';
import { StatusWord } from './ui';

type Diff = paths['/api/diff']['post']['responses']['200']['content']['application/json'];
type Compare = paths['/api/compare']['post']['responses']['200']['content']['application/json'];
type Kinds = 'schemas' | 'tables' | 'views' | 'functions' | 'volumes';
const KINDS: Kinds[] = ['schemas', 'tables', 'views', 'functions', 'volumes'];
export type CompareTable = Compare['tables'][number];
export type { components };

/** The diff (objects on one side only, column drift) and the per-table comparison. */
export function DiffView({ diff, compare }: { diff: Diff; compare: Compare }) {
  return (
    <section aria-labelledby="diff-title" data-testid="compare-diff">
      <h2 id="diff-title">
        {diff.source_catalog} → {diff.destination_catalog}:{' '}
        <StatusWord status={diff.in_sync ? 'in_sync' : 'failed'}>{diff.in_sync ? 'in sync' : 'differences'}</StatusWord>
      </h2>
      <table>
        <caption>Objects in each catalog</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Source</th>
            <th scope="col">Destination</th>
            <th scope="col">In both</th>
            <th scope="col">Only in source</th>
            <th scope="col">Only in destination</th>
          </tr>
        </thead>
        <tbody>
          {KINDS.map((k) => {
            const d = diff[k];
            return (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{d.source_count}</td>
                <td>{d.dest_count}</td>
                <td>{d.in_both}</td>
                <td>{d.only_in_source.join(', ') || '—'}</td>
                <td>{d.only_in_dest.join(', ') || '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {diff.schema_changes.length > 0 && (
        <table>
          <caption>Column drift</caption>
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Column</th>
              <th scope="col">Change</th>
              <th scope="col">Source type</th>
              <th scope="col">Destination type</th>
            </tr>
          </thead>
          <tbody>
            {diff.schema_changes.flatMap((s) =>
              s.changes.map((c) => (
                <tr key={`${s.table}.${c.column}`}>
                  <td>{s.table}</td>
                  <td>{c.column}</td>
                  <td>{c.change.replace('_', ' ')}</td>
                  <td>{c.source_type ?? '—'}</td>
                  <td>{c.dest_type ?? '—'}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
      <h3>
        Tables: {compare.tables_ok} of {compare.total_tables} match, {compare.tables_with_issues} with issues
      </h3>
      <div className="scroll" tabIndex={0} role="region" aria-label="Tables compared">
        <table data-testid="compare-tables">
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Result</th>
              <th scope="col">Source rows</th>
              <th scope="col">Destination rows</th>
              <th scope="col">Checksum</th>
            </tr>
          </thead>
          <tbody>
            {compare.tables.map((t) => (
              <tr key={t.table} data-testid="compare-row">
                <td>{t.table}</td>
                <td>
                  {t.issues.length === 0 ? (
                    <StatusWord status="ok">matches</StatusWord>
                  ) : (
                    <StatusWord status="failed">{t.issues.map((i) => i.replace(/_/g, ' ')).join(', ')}</StatusWord>
                  )}
                  {t.error ? ` (${t.error})` : ''}
                </td>
                <td>{t.source_rows ?? '—'}</td>
                <td>{t.dest_rows ?? '—'}</td>
                <td>{t.checksum_match === null ? 'not compared' : t.checksum_match ? 'equal' : 'differs'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
