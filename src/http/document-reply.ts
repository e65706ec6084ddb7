import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A document answer: XML, PDF and ESC/POS are downloads, `Content-Disposition:
 * attachment`, so a browser never renders them on the API's origin. An XML rendered there could run
 * an XSLT stylesheet or XHTML script (the offline intake once kept a `<?xml-stylesheet?>` beside a
 * signed NFe); nosniff comes from plugins/response-headers.ts for every answer.
 *
 * One exception, for PDFs only: a browser's frame request (`Sec-Fetch-Dest: iframe`, set by the
 * browser, never by a page's script) is answered inline, so the dashboard can show the DANFE it
 * frames from its own origin. The PDF is the gateway's own rendering, not bytes a client sent.
 */
export function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  doc: { type: 'application/xml; charset=utf-8' | 'application/pdf' | 'application/octet-stream'; fileName: string; body: string | Buffer },
): FastifyReply {
  const framed = doc.type === 'application/pdf' && request.headers['sec-fetch-dest'] === 'iframe';
  return reply
    .type(doc.type)
    .header('Content-Disposition', `${framed ? 'inline' : 'attachment'}; filename="${safeFileName(doc.fileName)}"`)
    .send(doc.body);
}

/**
 * The HTML receipt (GET /v1/nfce/:id/danfe.html) is meant to be opened in a browser tab and printed
 * from there, so it stays inline. What makes that safe is its CSP (danfe/html: nothing loads, no script
 * runs, no form posts, no base URL) plus `frame-ancestors 'none'`: no other site can frame it under the
 * user's session. (`sandbox` would add little over `script-src 'none'` and is left out: headless
 * printing and inspection of the page, as the receipt tests do, need a scriptable document.)
 */
export function sendReceiptPage(reply: FastifyReply, page: { csp: string; fileName: string; body: string }): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', `${page.csp}; frame-ancestors 'none'`)
    .header('Content-Disposition', `inline; filename="${safeFileName(page.fileName)}"`)
    .send(page.body);
}

// File names are made of ids and access keys; anything else is replaced so the header stays one token.
export const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** A ZIP streamed as the client reads it (GET /v1/exports/:id/download), its length and SHA-256 known beforehand. */
export function sendZipStream(reply: FastifyReply, zip: { fileName: string; size: number; sha256: string; body: NodeJS.ReadableStream }): FastifyReply {
  return reply
    .type('application/zip')
    .header('Content-Length', zip.size)
    .header('X-Content-SHA256', zip.sha256)
    .header('Content-Disposition', `attachment; filename="${safeFileName(zip.fileName)}"`)
    .send(zip.body);
}
