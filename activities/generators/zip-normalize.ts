import JSZip from 'jszip';

/**
 * Office files (DOCX, PPTX, XLSX) are ZIP archives whose entries carry the time they were written and whose
 * core properties carry created/modified dates: both are set to `when` and the archive rebuilt with one fixed
 * compression, so the same document content always gives the same bytes.
 */
export async function normalizeOfficeZip(data: Buffer, when: Date): Promise<Buffer> {
  const src = await JSZip.loadAsync(data);
  const out = new JSZip();
  const iso = when.toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const name of Object.keys(src.files)) {
    const entry = src.files[name];
    if (entry.dir) continue;
    let content: Buffer | string = await entry.async('nodebuffer');
    if (name === 'docProps/core.xml') {
      content = content
        .toString('utf8')
        .replace(/(<dcterms:created[^>]*>)[^<]*(<\/dcterms:created>)/, `$1${iso}$2`)
        .replace(/(<dcterms:modified[^>]*>)[^<]*(<\/dcterms:modified>)/, `$1${iso}$2`);
    }
    out.file(name, content, { date: when, createFolders: false });
  }
  return out.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    compressionOptions: { level: 6 },
    platform: 'UNIX',
  });
}
