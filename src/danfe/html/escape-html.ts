/** Text as HTML character data or a quoted attribute value: nothing in it can open a tag or end a quote. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
