import { Resvg } from '@resvg/resvg-js';
import { stringify } from 'csv-stringify/sync';
import type { TopLevelSpec } from 'vega-lite';
import type { ReportResult } from '../../../schemas/mdm-reports';

/** Downloads of a report run: the chart (Vega-Lite → SVG, no canvas; PNG by resvg), PDF, CSV, JSON and HTML. */

type Row = ReportResult['rows'][number];

const isNumeric = (rows: Row[], field: string) => rows.every((r) => r[field] === null || typeof r[field] === 'number');
const isDay = (rows: Row[], field: string) =>
  rows.length > 0 && rows.every((r) => typeof r[field] === 'string' && /^\d{4}-\d{2}-\d{2}/.test(String(r[field])));

/** The Vega-Lite spec of a report's chart, or null when it has none. */
export function vegaLiteSpec(r: ReportResult): Record<string, unknown> | null {
  if (!r.viz) return null;
  const { type, x, y } = r.viz;
  const xType = isDay(r.rows, x) ? 'temporal' : isNumeric(r.rows, x) ? 'quantitative' : 'nominal';
  const base = { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', title: r.title, width: 480, height: 260 };
  const data = { values: r.rows };
  if (type === 'arc')
    return {
      ...base,
      data,
      mark: 'arc',
      encoding: { theta: { field: y, type: 'quantitative', aggregate: 'sum' }, color: { field: x, type: 'nominal' } },
    };
  return {
    ...base,
    data,
    mark: { type, tooltip: true },
    encoding: {
      x: { field: x, type: xType },
      y: { field: y, type: 'quantitative', aggregate: 'sum' },
    },
  };
}

/** The chart as SVG text (vega's headless renderer), or null without a chart. */
export async function chartSvg(r: ReportResult): Promise<string | null> {
  const spec = vegaLiteSpec(r);
  if (!spec) return null;
  // vega, vega-lite and pdfkit (below) load at the first report that needs them, not with every process.
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vegaLite.compile(spec as unknown as TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

export function svgToPng(svg: string): Buffer {
  return Buffer.from(new Resvg(svg, { background: 'white', fitTo: { mode: 'zoom', value: 2 } }).render().asPng());
}

const text = (v: Row[string]) => (v === null ? '' : String(v));

export function toCsv(r: ReportResult): string {
  return stringify(
    r.rows.map((row) => r.columns.map((c) => text(row[c]))),
    { header: true, columns: r.columns, record_delimiter: 'unix' },
  );
}

export function toJson(r: ReportResult): string {
  return JSON.stringify(
    {
      report: r.report,
      title: r.title,
      parameters: r.parameters,
      columns: r.columns,
      rows: r.rows,
      truncated: r.truncated,
    },
    null,
    2,
  );
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One HTML file with no outside references: inline style, the chart as inline SVG, the rows as a table. */
export function toHtml(r: ReportResult, svg: string | null): string {
  const params = Object.entries(r.parameters)
    .map(([k, v]) => `${esc(k)}: ${esc(String(v))}`)
    .join(' · ');
  const head = r.columns.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = r.rows
    .map((row) => `<tr>${r.columns.map((c) => `<td>${esc(text(row[c]))}</td>`).join('')}</tr>`)
    .join('\n');
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(r.title)}</title>` +
    `<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}` +
    `th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f3f3f3}</style></head><body>\n` +
    `<h1>${esc(r.title)}</h1>\n<p>${params}</p>\n${svg ?? ''}\n<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>` +
    (r.truncated ? '\n<p>Rows were truncated.</p>' : '') +
    `\n</body></html>\n`
  );
}

/** A PDF: title, parameters, the chart (svg-to-pdfkit, vector) and the rows as text lines. */
export async function toPdf(r: ReportResult, svg: string | null): Promise<Buffer> {
  const [{ default: PDFDocument }, { default: SVGtoPDF }] = await Promise.all([
    import('pdfkit'),
    import('svg-to-pdfkit'),
  ]);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: r.title } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(18).text(r.title);
    doc.moveDown(0.5);
    doc.fontSize(9).text(
      Object.entries(r.parameters)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('   '),
    );
    doc.moveDown();
    if (svg) {
      SVGtoPDF(doc, svg, 40, doc.y, { width: 500, preserveAspectRatio: 'xMinYMin meet' });
      doc.y += 300;
    }
    doc.fontSize(9).font('Courier');
    doc.text(r.columns.join(' | '), 40, doc.y);
    for (const row of r.rows) doc.text(r.columns.map((c) => text(row[c])).join(' | '));
    if (r.truncated) doc.text('(rows truncated)');
    doc.end();
  });
}
