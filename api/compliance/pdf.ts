import type { Dossier } from '../../schemas/compliance';

const STATUS_COLOUR: Record<string, string> = { met: '#1b7f3b', partial: '#b7791f', gap: '#c53030' };
const pct = (score: number) => `${(score * 100).toFixed(1)}%`;

/** The dossier as a PDF: summary, controls with status and evidence counts, the score trend as a chart, gaps. */
export async function renderDossierPdf(d: Dossier): Promise<Buffer> {
  // pdfkit and its fonts load at the first dossier, not with the API.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: `${d.framework_name} compliance dossier` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const a = d.assessment;
  doc.fontSize(18).text(`${d.framework_name} (${d.framework_id}) compliance dossier`);
  doc.fontSize(10).fillColor('#444');
  doc.text(`Framework version ${d.framework_version}. Period ${d.period_start} to ${d.period_end}.`);
  doc.text(`Assessment ${a.assessment_id} at ${a.assessed_at} by ${a.assessed_by}. Generated ${d.generated_at}.`);
  doc.moveDown().fillColor('black').fontSize(12);
  doc.text(
    `Score ${pct(a.score)}: ${a.met_controls} met, ${a.partial_controls} partial, ${a.gap_controls} gap of ${a.total_controls} controls.`,
  );

  doc.moveDown().fontSize(14).text('Controls');
  doc.fontSize(9);
  for (const c of a.evidence) {
    doc
      .fillColor(STATUS_COLOUR[c.status] ?? 'black')
      .text(`${c.control_id}  ${c.status.toUpperCase()}`, { continued: true });
    doc.fillColor('black').text(`  ${c.control_name} (${c.category}); evidence count ${c.evidence_count}`);
    for (const s of c.sources) doc.fillColor('#555').text(`    ${s.evidence_type} [${s.state}]: ${s.evidence_summary}`);
    doc.fillColor('black');
  }

  doc.addPage().fontSize(14).text('Score trend');
  drawTrend(doc, d.trend);

  doc.moveDown().fontSize(14).text('Gaps');
  doc.fontSize(9);
  if (d.gaps.length === 0) doc.text('No control is partial or a gap.');
  for (const g of d.gaps)
    doc.text(
      `${g.control_id} ${g.status.toUpperCase()} ${g.evidence_type} (${g.state}, ${g.evidence_count}): ${g.evidence_summary}`,
    );
  doc.end();
  return done;
}

/** A line chart of the scores (0–100 %) in vector graphics: axes, grid, one point per assessment. */
function drawTrend(doc: PDFKit.PDFDocument, points: Dossier['trend']): void {
  const x0 = 80;
  const y0 = doc.y + 10;
  const w = 420;
  const h = 160;
  doc.save().lineWidth(0.5).strokeColor('#999');
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    const y = y0 + h - v * h;
    doc
      .moveTo(x0, y)
      .lineTo(x0 + w, y)
      .stroke();
    doc
      .fontSize(7)
      .fillColor('#555')
      .text(`${v * 100}%`, x0 - 30, y - 3, { width: 25, align: 'right', lineBreak: false });
  }
  doc
    .lineWidth(1)
    .strokeColor('black')
    .moveTo(x0, y0)
    .lineTo(x0, y0 + h)
    .lineTo(x0 + w, y0 + h)
    .stroke();
  const step = points.length > 1 ? w / (points.length - 1) : 0;
  const at = (i: number) => ({ x: x0 + (points.length > 1 ? i * step : w / 2), y: y0 + h - points[i].score * h });
  if (points.length > 0) {
    doc.lineWidth(2).strokeColor('#2b6cb0');
    points.forEach((_, i) => (i === 0 ? doc.moveTo(at(i).x, at(i).y) : doc.lineTo(at(i).x, at(i).y)));
    doc.stroke();
    points.forEach((_, i) => doc.circle(at(i).x, at(i).y, 2.5).fill('#2b6cb0'));
  }
  doc.restore();
  doc.fillColor('black').fontSize(8);
  doc.text(
    points.length
      ? `${points.length} assessments, ${points[0].assessed_at} to ${points[points.length - 1].assessed_at}`
      : 'No assessments in the period',
    x0,
    y0 + h + 8,
  );
  doc.x = 48;
}
