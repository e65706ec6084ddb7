export { renderDanfeHtml, RECEIPT_CSP, type HtmlOptions } from './render-html.js';
