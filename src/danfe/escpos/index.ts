export { renderDanfeEscpos, type EscposOptions } from './render-escpos.js';
export { encodePc860, PC860, pc860Text } from './code-page.js';
