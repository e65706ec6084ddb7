// Issue 31 item 2: sentences the gateway writes in English, as the dashboard renders them in Portuguese
// (dashboard/src/i18n/pt-BR/gateway.ts). Each English sentence below is copied from the source that
// writes it (named beside it), and the test also finds its fixed part there: a reworded sentence in
// src/ fails here instead of silently showing English again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatewayText } from '../dashboard/src/i18n/index.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';

const CASES: Array<[source: string, fixedPart: string, english: string, portuguese: string]> = [
  ['src/fiscal/certificate/pfx.ts', 'The certificate password is wrong.', 'The certificate password is wrong.', 'A senha do certificado está errada.'],
  ['src/fiscal/certificate/pfx.ts', 'The file is not a valid PKCS#12 (.pfx/.p12) certificate.', 'The file is not a valid PKCS#12 (.pfx/.p12) certificate.', 'O arquivo não é um certificado PKCS#12 (.pfx/.p12) válido.'],
  ['src/platform/issuers/upload-certificate.ts', '; upload a current A1 certificate.', 'The certificate expired on 2025-03-31; upload a current A1 certificate.', 'O certificado venceu em 31/03/2025; envie um certificado A1 dentro da validade.'],
  ['src/documents/notes/services/authorize-note.ts', 'sent to the authority (attempt ${job.attempts})', 'sent to the authority (attempt 1)', 'enviada à SEFAZ (tentativa 1)'],
  ['src/documents/notes/services/authorize-note.ts', 'lot received: receipt ${result.nRec}', 'lot received: receipt 351000000012345', 'lote recebido: recibo 351000000012345'],
  ['src/documents/notes/services/emission-batches.ts', '${work.label} ${n.number} series ${n.serie} signed', 'NFC-e 12 series 1 signed', 'NFC-e 12 série 1 assinada'],
  ['src/documents/nfse/services/authorize-nfse.ts', 'DPS sent to Sefin Nacional (attempt ${job.attempts})', 'DPS sent to Sefin Nacional (attempt 2)', 'DPS enviada à Sefin Nacional (tentativa 2)'],
  ['src/http/plugins/auth.ts', 'Confirm your e-mail first: open the link we sent', 'Confirm your e-mail first: open the link we sent (POST /v1/auth/verify-email/resend sends another)', 'Confirme seu e-mail primeiro: abra o link que enviamos (ou peça outro).'],
  ['src/http/plugins/rate-limit.ts', 'requests per minute for this session exceeded', 'Rate limit of 300 requests per minute for this session exceeded; retry in 42 s', 'Limite de 300 requisições por minuto desta sessão atingido; tente de novo em 42 s.'],
];

describe('the gateway\'s English sentences in the dashboard', () => {
  it.each(CASES)('%s: "%s" is said in Portuguese', (source, fixedPart, english, portuguese) => {
    expect(readFileSync(join(PROJECT_ROOT, source), 'utf8')).toContain(fixedPart);
    expect(gatewayText(english)).toBe(portuguese);
  });

  it('shows any other sentence as the gateway wrote it (the authority\'s own xMotivo is Portuguese already)', () => {
    expect(gatewayText('Autorizado o uso da NF-e')).toBe('Autorizado o uso da NF-e');
    expect(gatewayText('something new')).toBe('something new');
  });
});
