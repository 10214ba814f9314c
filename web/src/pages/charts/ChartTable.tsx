import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';

/** One column of the table and (when `plot`) the series the chart draws from it. */
export interface ChartColumn<Row> {
  key: string;
  label: string;
  /** The cell as shown (text, or a status in words with its symbol). */
  cell: (row: Row) => ReactNode;
  /** The number the chart plots for this column (only one column is plotted). */
  plot?: (row: Row) => number;
}

/**
 * A bar chart and, beside it, the table of the same numbers (the chart's text alternative: every value the bars
 * show is a cell, in words, never colour alone). The caption names what both show.
 */
export function ChartTable<Row>(props: {
  testId: string;
  caption: string;
  rows: Row[];
  /** The category each bar stands for (x axis and the table's first column). */
  category: { label: string; of: (row: Row) => string };
  columns: ChartColumn<Row>[];
  /** The y axis' bounds (a rate: [0, 100]). */
  domain?: [number, number];
  empty: ReactNode;
}) {
  const plotted = props.columns.find((c) => c.plot);
  if (!props.rows.length) return <p data-testid={`${props.testId}-empty`}>{props.empty}</p>;
  const data = props.rows.map((r) => ({ name: props.category.of(r), value: plotted?.plot?.(r) ?? 0 }));
  const tick = { fill: 'var(--fg)', fontSize: 12 };
  return (
    <div className="cards">
      {plotted && (
        <figure aria-label={`${props.caption}: chart of ${plotted.label} (the table beside it has the same numbers)`}>
          <BarChart width={Math.min(720, 120 + data.length * 48)} height={220} data={data} accessibilityLayer>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="name" tick={tick} stroke="var(--border)" />
            <YAxis tick={tick} stroke="var(--border)" domain={props.domain ?? [0, 'auto']} />
            <Tooltip
              contentStyle={{ background: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--border)' }}
            />
            <Bar dataKey="value" name={plotted.label} fill="var(--link)" />
          </BarChart>
          <figcaption className="marker">{props.caption}</figcaption>
        </figure>
      )}
      <table data-testid={props.testId}>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.category.label}</th>
            {props.columns.map((c) => (
              <th scope="col" key={c.key}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r, i) => (
            <tr key={`${props.category.of(r)}-${i}`}>
              <th scope="row">{props.category.of(r)}</th>
              {props.columns.map((c) => (
                <td key={c.key} data-col={c.key}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
