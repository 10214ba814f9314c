import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import type { CompareTable } from './DiffView';
import { CallError, fieldErrors, StatusWord, TextField } from './ui';

const show = (v: unknown) =>
  v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const differs = { outline: '2px solid currentColor', fontWeight: 700 } as const;

/** One table's rows from both catalogs side by side (POST /api/sample/compare), differing cells marked with ≠. */
export function SampleCompare({ source, dest, tables }: { source: string; dest: string; tables: CompareTable[] }) {
  const { api } = useConsole();
  const both = tables.filter((t) => !t.issues.includes('missing_in_destination')).map((t) => t.table);
  const [table, setTable] = useState(both[0] ?? '');
  const [limit, setLimit] = useState('10');
  const [orderBy, setOrderBy] = useState('');
  const run = useMutation({
    mutationFn: () => {
      const [schema_name, ...rest] = table.split('.');
      return unwrap(
        api.client.POST('/api/sample/compare', {
          body: {
            source_catalog: source,
            destination_catalog: dest,
            schema_name,
            table_name: rest.join('.'),
            limit: Number(limit),
            ...(orderBy ? { order_by: orderBy } : {}),
          },
        }),
      );
    },
  });
  const errs = fieldErrors(run.error);
  const r = run.data;
  const columns = r ? [...new Set(r.rows.flatMap((x) => Object.keys(x.source ?? x.dest ?? {})))] : [];
  return (
    <section aria-labelledby="sample-compare-title">
      <h2 id="sample-compare-title">Sample compare</h2>
      {both.length === 0 ? (
        <p>No table exists in both catalogs.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            run.mutate();
          }}
        >
          <div className="row-actions">
            <div className="field">
              <label htmlFor="sample-table">Table (schema.table)</label>
              <select id="sample-table" value={table} onChange={(e) => setTable(e.target.value)}>
                {both.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </div>
            <TextField
              id="sample-limit"
              label="Rows"
              type="number"
              value={limit}
              onChange={setLimit}
              error={errs.limit}
            />
            <TextField
              id="sample-order"
              label="Order by column"
              value={orderBy}
              onChange={setOrderBy}
              error={errs.order_by}
              hint="default: every column"
            />
          </div>
          <button type="submit" disabled={run.isPending}>
            Compare rows
          </button>
        </form>
      )}
      <CallError error={run.error} fields={['limit', 'order_by']} />
      {r && (
        <div data-testid="sample-compare">
          <p>
            {r.schema}.{r.table}: {r.source_rows} source rows, {r.dest_rows} destination rows —{' '}
            {r.match ? (
              <StatusWord status="ok">the sampled rows match</StatusWord>
            ) : (
              <StatusWord status="failed">
                {r.differences} differing row{r.differences === 1 ? '' : 's'}
              </StatusWord>
            )}
          </p>
          <div className="scroll" tabIndex={0} role="region" aria-label="Rows side by side">
            <table>
              <caption>Each row from the source, then the destination; ≠ marks a cell that differs</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Side</th>
                  {columns.map((c) => (
                    <th scope="col" key={c}>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {r.rows.flatMap((row) =>
                  (['source', 'dest'] as const).map((side) => (
                    <tr key={`${row.index}-${side}`} data-testid={`sample-${side}`}>
                      {side === 'source' && (
                        <th scope="rowgroup" rowSpan={2}>
                          {row.index + 1}
                        </th>
                      )}
                      <td>{side === 'source' ? 'source' : 'destination'}</td>
                      {columns.map((c) => {
                        const d = row.differing_columns.includes(c);
                        const values = row[side];
                        return (
                          <td key={c} data-differs={d || undefined} style={d ? differs : undefined}>
                            {d && <span aria-label="differs: ">≠ </span>}
                            {values ? show(values[c]) : '(no row)'}
                          </td>
                        );
                      })}
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
