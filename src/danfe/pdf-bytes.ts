// The bytes of a pdfkit document, shared by the DANFE NFC-e, DANFE NF-e and DANFSe renderers.

/** Collects what `doc` writes; resolves once doc.end() has flushed the last chunk. Call before drawing. */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
