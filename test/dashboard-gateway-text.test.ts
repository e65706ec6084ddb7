// Sentences the gateway writes in English, as the dashboard shows them in Portuguese.
// Error messages are said in Portuguese by the gateway itself (the dashboard asks Accept-Language:
// pt-BR on every call, dashboard/src/api/client.ts; the catalog is src/http/i18n/), the lines of a
// note's timeline too (stored in English, said in pt-BR by GET .../events: src/http/i18n/history-pt-br.ts). Each
// English sentence below is copied from the source that writes it (named beside it), and the test
// also finds its fixed part there: a reworded sentence in src/ fails here instead of silently
// showing English again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_CATALOG_PT_BR } from '../src/http/i18n/history-pt-br.js';
import { localizeError } from '../src/http/i18n/localize.js';
import type { ErrorCode } from '../src/kernel/errors.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';

type Case<T> = [source: string, fixedPart: string, what: T, english: string, portuguese: string];

const SAID_BY_THE_GATEWAY: Array<Case<ErrorCode>> = [
  ['src/fiscal/certificate/pfx.ts', 'The certificate password is wrong.', 'certificate_invalid', 'The certificate password is wrong.', 'A senha do certificado está errada.'],
  ['src/fiscal/certificate/pfx.ts', 'The file is not a valid PKCS#12 (.pfx/.p12) certificate.', 'certificate_invalid', 'The file is not a valid PKCS#12 (.pfx/.p12) certificate.', 'O arquivo não é um certificado PKCS#12 (.pfx/.p12) válido.'],
  ['src/platform/issuers/upload-certificate.ts', '; upload a current A1 certificate.', 'certificate_invalid', 'The certificate expired on 2025-03-31; upload a current A1 certificate.', 'O certificado venceu em 31/03/2025; envie um certificado A1 dentro da validade.'],
  ['src/http/plugins/auth.ts', 'Confirm your e-mail first: open the link we sent', 'email_not_verified', 'Confirm your e-mail first: open the link we sent (POST /v1/auth/verify-email/resend sends another)', 'Confirme seu e-mail primeiro: abra o link que enviamos (ou peça outro).'],
  ['src/http/plugins/rate-limit.ts', 'requests per minute for this session exceeded', 'rate_limited', 'Rate limit of 300 requests per minute for this session exceeded; retry in 42 s', 'Limite de 300 requisições por minuto desta sessão atingido; tente de novo em 42 s.'],
];

const TIMELINE_SAID_BY_THE_GATEWAY: Array<Case<'timeline'>> = [
  ['src/documents/notes/services/authorize-note.ts', 'sent to the authority (attempt ${job.attempts})', 'timeline', 'sent to the authority (attempt 1)', 'enviada à SEFAZ (tentativa 1)'],
  ['src/documents/notes/services/authorize-note.ts', 'lot received: receipt ${result.nRec}', 'timeline', 'lot received: receipt 351000000012345', 'lote recebido: recibo 351000000012345'],
  ['src/documents/notes/services/emission-batches.ts', '${work.label} ${n.number} series ${n.serie} signed', 'timeline', 'NFC-e 12 series 1 signed', 'NFC-e 12 série 1 assinada'],
  ['src/documents/nfse/services/authorize-nfse.ts', 'DPS sent to Sefin Nacional (attempt ${job.attempts})', 'timeline', 'DPS sent to Sefin Nacional (attempt 2)', 'DPS enviada à Sefin Nacional (tentativa 2)'],
];

describe("the gateway's English sentences in the dashboard", () => {
  it.each(SAID_BY_THE_GATEWAY)('%s: "%s" is said in Portuguese by the gateway', (source, fixedPart, code, english, portuguese) => {
    expect(readFileSync(join(PROJECT_ROOT, source), 'utf8')).toContain(fixedPart);
    expect(localizeError('pt-BR', code, english, undefined).message).toBe(portuguese);
    expect(localizeError('en', code, english, undefined).message).toBe(english);
  });

  it.each(TIMELINE_SAID_BY_THE_GATEWAY)('%s: "%s" (a timeline line) is said in Portuguese by the gateway', (source, fixedPart, _what, english, portuguese) => {
    expect(readFileSync(join(PROJECT_ROOT, source), 'utf8')).toContain(fixedPart);
    expect(HISTORY_CATALOG_PT_BR.translate(english)).toBe(portuguese);
  });

  it('every API call of the dashboard asks for Portuguese', () => {
    const client = readFileSync(join(PROJECT_ROOT, 'dashboard/src/api/client.ts'), 'utf8');
    expect(client).toMatch(/headers\.set\('Accept-Language', DASHBOARD_LANGUAGE\)/);
    expect(client).toMatch(/DASHBOARD_LANGUAGE = 'pt-BR'/);
  });

  it('knows no other sentence, so the authority\'s own xMotivo (Portuguese already) is shown as written', () => {
    expect(HISTORY_CATALOG_PT_BR.translate('Autorizado o uso da NF-e')).toBeUndefined();
    expect(HISTORY_CATALOG_PT_BR.translate('something new')).toBeUndefined();
  });
});
