// A catalog of translations keyed by the English sentence the code writes. A key may hold `{}`
// placeholders, one per interpolated value of the English template literal; the translation takes
// them in order (`{}`) or by position (`{0}`, `{1}`). Exact sentences are looked up first, then the
// templates, the most specific (longest fixed text) first, each anchored on the whole sentence.

export type Translations = Readonly<Record<string, string>>;

interface Template {
  re: RegExp;
  fixed: number;
  to: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function fill(to: string, values: readonly string[]): string {
  let next = 0;
  return to.replace(/\{(\d*)\}/g, (_, n: string) => values[n === '' ? next++ : Number(n)] ?? '');
}

export class TemplateCatalog {
  private readonly exact = new Map<string, string>();
  private readonly templates: Template[] = [];
  private readonly keys = new Set<string>();

  /** `value` says a captured value in the target language (a word like "an NFC-e", a date). */
  constructor(sources: readonly Translations[], private readonly value: (v: string) => string = (v) => v) {
    for (const source of sources) {
      for (const [en, to] of Object.entries(source)) {
        this.keys.add(en);
        if (!en.includes('{}')) {
          this.exact.set(en, to);
          continue;
        }
        const parts = en.split('{}');
        const fixed = parts.join('').length;
        // A template that is nothing but placeholders would match any sentence.
        if (fixed === 0) continue;
        this.templates.push({ re: new RegExp(`^${parts.map(escape).join('([\\s\\S]*?)')}$`), fixed, to });
      }
    }
    this.templates.sort((a, b) => b.fixed - a.fixed);
  }

  /** The translation of an English sentence, or undefined when the catalog does not hold it. */
  translate(text: string): string | undefined {
    const exact = this.exact.get(text);
    if (exact !== undefined) return exact;
    for (const t of this.templates) {
      const m = t.re.exec(text);
      if (m) return fill(t.to, m.slice(1).map(this.value));
    }
    return undefined;
  }

  /** Whether the catalog holds this English key (exact sentence or template), for the tests. */
  has(key: string): boolean {
    return this.keys.has(key);
  }
}
