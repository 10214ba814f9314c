import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import { asOfDate, itemSources, type Rng } from './logic/rng';
import type { TextItem } from './logic/knowledge';
import { normalizeOfficeZip } from './zip-normalize';

// Optional libraries load when a type needs them: a missing one fails that type only (the API answers 503 first).
const load = createRequire(__filename);

export interface BinaryItem extends Omit<TextItem, 'text'> {
  data: Buffer;
}

interface DocContent {
  title: string;
  author: string;
  company: string;
  paragraphs: string[];
  table: string[][];
  summary: string;
  metadata: Record<string, string>;
}

const KINDS_OF_DOCUMENT = ['Quarterly report', 'Project proposal', 'Incident review', 'Policy memo', 'Meeting notes'];

function content(faker: Faker, rng: Rng, type: string): DocContent {
  const kind = rng.pick(KINDS_OF_DOCUMENT);
  const company = faker.company.name();
  const title = `${kind}: ${faker.company.catchPhrase()}`;
  const author = faker.person.fullName();
  const paragraphs = Array.from({ length: rng.int(2, 4) }, () => faker.lorem.paragraph({ min: 3, max: 6 }));
  const table = [
    ['Region', 'Units', 'Revenue'],
    ...Array.from({ length: rng.int(3, 6) }, () => [
      faker.location.country(),
      String(rng.int(10, 5000)),
      (rng.int(1_000, 900_000) / 100).toFixed(2),
    ]),
  ];
  const summary = `${kind} of ${company} by ${author}: ${paragraphs.length} sections and ${table.length - 1} table rows.`;
  return {
    title,
    author,
    company,
    paragraphs,
    table,
    summary,
    metadata: { author, company, document_kind: kind, format: type },
  };
}

async function pdf(c: DocContent, when: Date): Promise<Buffer> {
  const PDFDocument = load('pdfkit') as typeof import('pdfkit');
  const doc = new PDFDocument({
    compress: true,
    info: {
      Title: c.title,
      Author: c.author,
      Creator: 'Lakeward',
      Producer: 'Lakeward',
      CreationDate: when,
      ModDate: when,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (b: Buffer) => chunks.push(b));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.fontSize(18).text(c.title).moveDown();
  doc.fontSize(10).text(`${c.company} · ${c.author}`).moveDown();
  for (const p of c.paragraphs) doc.fontSize(11).text(p).moveDown();
  for (const row of c.table)
    doc
      .font('Courier')
      .fontSize(9)
      .text(row.map((x) => x.padEnd(28)).join(''));
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

async function docx(c: DocContent, when: Date): Promise<Buffer> {
  const d = load('docx') as typeof import('docx');
  const cell = (t: string) => new d.TableCell({ children: [new d.Paragraph(t)] });
  const document = new d.Document({
    creator: c.author,
    title: c.title,
    description: c.summary,
    sections: [
      {
        children: [
          new d.Paragraph({ text: c.title, heading: d.HeadingLevel.HEADING_1 }),
          new d.Paragraph({ children: [new d.TextRun({ text: `${c.company} · ${c.author}`, italics: true })] }),
          ...c.paragraphs.map((p) => new d.Paragraph(p)),
          new d.Table({ rows: c.table.map((r) => new d.TableRow({ children: r.map(cell) })) }),
        ],
      },
    ],
  });
  return normalizeOfficeZip(await d.Packer.toBuffer(document), when);
}

async function pptx(c: DocContent, when: Date): Promise<Buffer> {
  const Pptx = load('pptxgenjs') as typeof import('pptxgenjs').default;
  const deck = new Pptx();
  deck.author = c.author;
  deck.company = c.company;
  deck.title = c.title;
  deck.addSlide().addText(c.title, { x: 0.5, y: 1.5, w: 9, h: 1.5, fontSize: 28, bold: true });
  for (const p of c.paragraphs) deck.addSlide().addText(p, { x: 0.5, y: 0.5, w: 9, h: 4.5, fontSize: 14 });
  deck.addSlide().addTable(
    c.table.map((r) => r.map((text) => ({ text }))),
    { x: 0.5, y: 0.5, w: 9, fontSize: 12 },
  );
  const out = (await deck.write({ outputType: 'nodebuffer', compression: true })) as Buffer;
  return normalizeOfficeZip(out, when);
}

async function xlsx(c: DocContent, when: Date): Promise<Buffer> {
  const ExcelJS = load('exceljs') as typeof import('exceljs');
  const wb = new ExcelJS.Workbook();
  wb.creator = c.author;
  wb.lastModifiedBy = c.author;
  wb.created = when;
  wb.modified = when;
  wb.title = c.title;
  const sheet = wb.addWorksheet('Data');
  sheet.addRow(c.table[0]);
  for (const r of c.table.slice(1)) sheet.addRow([r[0], Number(r[1]), Number(r[2])]);
  sheet.addRow(['Total', { formula: `SUM(B2:B${c.table.length})` }, { formula: `SUM(C2:C${c.table.length})` }]);
  const notes = wb.addWorksheet('Notes');
  c.paragraphs.forEach((p) => notes.addRow([p]));
  return normalizeOfficeZip(Buffer.from(await wb.xlsx.writeBuffer()), when);
}

async function eml(c: DocContent, faker: Faker, rng: Rng, when: Date): Promise<Buffer> {
  const MailComposer = load('nodemailer/lib/mail-composer') as new (mail: object) => {
    compile(): { build(): Promise<Buffer> };
  };
  const domain = faker.internet.domainName();
  const mail = new MailComposer({
    from: `${c.author} <${faker.internet.username().toLowerCase()}@${domain}>`,
    to: `${faker.person.fullName()} <${faker.internet.username().toLowerCase()}@${domain}>`,
    subject: c.title,
    text: c.paragraphs.join('\n\n'),
    html: c.paragraphs.map((p) => `<p>${p}</p>`).join(''),
    date: new Date(when.getTime() - rng.int(0, 30 * 86_400) * 1000),
    messageId: `<${rng.hex(24)}@${domain}>`,
    baseBoundary: rng.hex(16),
  });
  return mail.compile().build();
}

/** One document of `type` (pdf, docx, pptx, xlsx, eml) for the item's seed: the same seed, the same bytes. */
export async function buildDocument(type: string, seed: number, asOf: string, index: number): Promise<BinaryItem> {
  const { rng, faker } = itemSources(seed, asOf, 'documents', type, index);
  const c = content(faker, rng, type);
  const when = asOfDate(asOf);
  const data =
    type === 'pdf'
      ? await pdf(c, when)
      : type === 'docx'
        ? await docx(c, when)
        : type === 'pptx'
          ? await pptx(c, when)
          : type === 'xlsx'
            ? await xlsx(c, when)
            : type === 'eml'
              ? await eml(c, faker, rng, when)
              : null;
  if (!data) throw new Error(`unknown document type ${type}`);
  return { title: c.title, summary: c.summary, metadata: c.metadata, data };
}
