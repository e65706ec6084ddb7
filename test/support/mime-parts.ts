// Reads back a message an SMTP server received: its headers, its text and its attachments. Only what
// nodemailer writes (multipart/mixed, base64 or quoted-printable parts) is needed here.

export interface MimePart {
  headers: Record<string, string>;
  body: Buffer;
}

function split(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const c = line.indexOf(':');
    if (c > 0) headers[line.slice(0, c).toLowerCase()] = line.slice(c + 1).trim();
  }
  return { headers, body };
}

function decode(body: string, encoding: string | undefined): Buffer {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
    return Buffer.from(bytes);
  }
  return Buffer.from(body, 'utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) of a header, decoded. */
export function headerText(value: string): string {
  return value.replace(/\s*=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, kind: string, text: string) =>
    kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decode(text.replace(/_/g, ' '), 'quoted-printable').toString('utf8'));
}

/** The message's headers and its leaf parts (a single-part message is its own one part). */
export function mimeParts(raw: string): { headers: Record<string, string>; parts: MimePart[] } {
  const top = split(raw);
  const leaves = (entity: { headers: Record<string, string>; body: string }): MimePart[] => {
    const boundary = /boundary="?([^";]+)"?/i.exec(entity.headers['content-type'] ?? '')?.[1];
    if (!boundary) return [{ headers: entity.headers, body: decode(entity.body, entity.headers['content-transfer-encoding']) }];
    return entity.body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .flatMap((p) => leaves(split(p.replace(/^\r?\n/, ''))));
  };
  return { headers: top.headers, parts: leaves(top) };
}

/** The attachment named `suffix` (its file name ends with it), or undefined. */
export function attachment(parts: MimePart[], suffix: string): MimePart | undefined {
  return parts.find((p) => (/filename="?([^";]+)"?/i.exec(p.headers['content-disposition'] ?? '')?.[1] ?? '').endsWith(suffix));
}

/** The text/plain part as a string. */
export const plainText = (parts: MimePart[]): string =>
  parts.find((p) => (p.headers['content-type'] ?? '').startsWith('text/plain') && !/attachment/i.test(p.headers['content-disposition'] ?? ''))?.body.toString('utf8') ?? '';
