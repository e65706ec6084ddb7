import type { X509Certificate } from 'node:crypto';
import { basicConstraintsCa } from '../../fiscal/certificate/basic-constraints.js';
import type { CertificateInfo } from '../../fiscal/certificate/certificate-info.js';
import { signingProfile } from '../../fiscal/certificate/signing-profile.js';
import type { StatusOutcome } from '../../fiscal/sefaz/outcomes.js';

// The doctor's checks: what usually goes wrong when an issuer reaches production,
// each with a verdict and what to do, in Portuguese and English. Pure: the use case
// (issuer-diagnostics.ts) gathers the facts. Rule ids: MOC 7.0 Anexo I (assets/fiscal/rules/moc-anexo-i.json).

export type Verdict = 'pass' | 'warn' | 'fail' | 'skip';
export type Lang = 'pt-BR' | 'en';

export interface DiagnosticCheck {
  /** Stable English identifier. */
  id: string;
  verdict: Verdict;
  /** The MOC rule (and cStat) a failure would meet, when there is one. */
  rule: string | null;
  message: string;
  /** What to do; null when nothing is to be done. */
  action: string | null;
}

interface Text { 'pt-BR': string; en: string }
const check = (lang: Lang, id: string, verdict: Verdict, rule: string | null, message: Text, action: Text | null): DiagnosticCheck => ({
  id, verdict, rule, message: message[lang], action: action ? action[lang] : null,
});

const DAY_MS = 86_400_000;
/** Days before expiry from which the doctor warns (the expiry alerts start at 30 days too: certificate-expiry.ts). */
export const CERTIFICATE_WARN_DAYS = 30;
const date = (d: Date) => d.toISOString().slice(0, 10);
const upload: Text = { 'pt-BR': 'Envie o certificado A1 (.pfx) do emissor: POST /v1/issuers/{id}/certificate.', en: 'Upload the issuer\'s A1 certificate (.pfx): POST /v1/issuers/{id}/certificate.' };

export interface CertificateFacts {
  info: CertificateInfo;
  x509: X509Certificate;
}

/** E02 (291): the certificate is valid now; warns within 30 days of its end. */
export function certificateValidity(lang: Lang, cert: CertificateFacts | null, now: Date): DiagnosticCheck {
  if (!cert) return check(lang, 'certificate_validity', 'fail', 'E02', { 'pt-BR': 'O emissor não tem certificado digital.', en: 'The issuer has no certificate.' }, upload);
  const { notBefore, notAfter } = cert.info;
  if (now < notBefore) return check(lang, 'certificate_validity', 'fail', 'E02', { 'pt-BR': `O certificado só vale a partir de ${date(notBefore)}.`, en: `The certificate is valid only from ${date(notBefore)}.` }, { 'pt-BR': 'Confira o relógio desta máquina ou envie um certificado já vigente.', en: 'Check this machine\'s clock or upload a certificate already in force.' });
  if (now > notAfter) return check(lang, 'certificate_validity', 'fail', 'E02', { 'pt-BR': `O certificado venceu em ${date(notAfter)}: a SEFAZ rejeita (291).`, en: `The certificate expired on ${date(notAfter)}: the authority refuses it (291).` }, { 'pt-BR': 'Renove o certificado com a autoridade certificadora e envie o novo.', en: 'Renew the certificate with the certification authority and upload the new one.' });
  const days = Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS);
  if (days < CERTIFICATE_WARN_DAYS) return check(lang, 'certificate_validity', 'warn', 'E02', { 'pt-BR': `O certificado vence em ${days} dia(s), em ${date(notAfter)}.`, en: `The certificate expires in ${days} day(s), on ${date(notAfter)}.` }, { 'pt-BR': 'Renove-o agora: depois do vencimento nenhuma nota é autorizada.', en: 'Renew it now: after it expires no note is authorized.' });
  return check(lang, 'certificate_validity', 'pass', 'E02', { 'pt-BR': `Certificado válido até ${date(notAfter)}.`, en: `Certificate valid until ${date(notAfter)}.` }, null);
}

/** E03 (292) and F03 (213): the holder field, and its CNPJ base equal to the issuer's. */
export function certificateHolder(lang: Lang, cert: CertificateFacts | null, issuerCnpj: string): DiagnosticCheck {
  if (!cert) return check(lang, 'certificate_holder', 'skip', 'F03', { 'pt-BR': 'Sem certificado.', en: 'No certificate.' }, null);
  const { cnpj, cpf } = cert.info;
  if (!cnpj && !cpf) return check(lang, 'certificate_holder', 'fail', 'E03', { 'pt-BR': 'O certificado não traz o CNPJ nem o CPF do titular (campo ICP-Brasil): a SEFAZ rejeita (292).', en: 'The certificate carries neither the holder\'s CNPJ nor CPF (ICP-Brasil field): the authority refuses it (292).' }, { 'pt-BR': 'Use um e-CNPJ A1 emitido na ICP-Brasil.', en: 'Use an ICP-Brasil e-CNPJ A1.' });
  if (!cnpj) return check(lang, 'certificate_holder', 'fail', 'F03', { 'pt-BR': `O certificado é um e-CPF (${cpf!.slice(0, 3)}.***.***-${cpf!.slice(9)}), e o emissor é o CNPJ ${issuerCnpj}.`, en: `The certificate is an e-CPF (${cpf!.slice(0, 3)}.***.***-${cpf!.slice(9)}) and the issuer is CNPJ ${issuerCnpj}.` }, { 'pt-BR': 'Envie o e-CNPJ da empresa (ou de sua matriz).', en: 'Upload the company\'s e-CNPJ (or its head office\'s).' });
  if (cnpj.slice(0, 8) !== issuerCnpj.slice(0, 8)) return check(lang, 'certificate_holder', 'fail', 'F03', { 'pt-BR': `O CNPJ-base do certificado (${cnpj.slice(0, 8)}) difere do emissor (${issuerCnpj.slice(0, 8)}): a SEFAZ rejeita (213).`, en: `The certificate's CNPJ base (${cnpj.slice(0, 8)}) differs from the issuer's (${issuerCnpj.slice(0, 8)}): the authority refuses it (213).` }, { 'pt-BR': 'Envie o certificado desta empresa (matriz ou filial de mesmo CNPJ-base).', en: 'Upload this company\'s certificate (head office or a branch with the same CNPJ base).' });
  return check(lang, 'certificate_holder', 'pass', 'F03', { 'pt-BR': `CNPJ do certificado ${cnpj}, mesmo CNPJ-base do emissor.`, en: `Certificate CNPJ ${cnpj}, the issuer's CNPJ base.` }, null);
}

/** E01 (290): version 3, not a CA, KeyUsage digitalSignature + nonRepudiation. A sandbox test certificate only warns. */
export function certificateKeyUsage(lang: Lang, cert: CertificateFacts | null, sandbox: boolean): DiagnosticCheck {
  if (!cert) return check(lang, 'certificate_key_usage', 'skip', 'E01', { 'pt-BR': 'Sem certificado.', en: 'No certificate.' }, null);
  const p = signingProfile(cert.x509);
  const missing: string[] = [];
  if (p.version !== 3) missing.push(lang === 'en' ? `version ${p.version} (3 required)` : `versão ${p.version} (exige-se 3)`);
  if (basicConstraintsCa(cert.x509)) missing.push(lang === 'en' ? 'it is a CA certificate' : 'é um certificado de AC');
  if (!p.keyUsage?.digitalSignature) missing.push(lang === 'en' ? 'no digitalSignature key usage' : 'sem o uso "Assinatura Digital"');
  if (!p.keyUsage?.nonRepudiation) missing.push(lang === 'en' ? 'no nonRepudiation key usage' : 'sem o uso "Não Recusa"');
  if (missing.length === 0) return check(lang, 'certificate_key_usage', 'pass', 'E01', { 'pt-BR': 'Certificado v3 com os usos Assinatura Digital e Não Recusa.', en: 'A v3 certificate with the digitalSignature and nonRepudiation key usages.' }, null);
  const message: Text = { 'pt-BR': `Uma SEFAZ rejeitaria este certificado (290): ${missing.join('; ')}.`, en: `An authority would refuse this certificate (290): ${missing.join('; ')}.` };
  return check(lang, 'certificate_key_usage', sandbox ? 'warn' : 'fail', 'E01', message, sandbox
    ? { 'pt-BR': 'O sandbox aceita certificados de teste; em produção use um e-CNPJ A1 da ICP-Brasil.', en: 'The sandbox accepts test certificates; in production use an ICP-Brasil e-CNPJ A1.' }
    : { 'pt-BR': 'Use um e-CNPJ A1 emitido na ICP-Brasil.', en: 'Use an ICP-Brasil e-CNPJ A1.' });
}

/**
 * E07 (295): the root is ICP-Brasil. The project holds no ICP-Brasil root certificates, so this reads
 * the issuing authority's name (ICP-Brasil certificates name "O=ICP-Brasil" in their issuer): a
 * certificate whose issuer does not is certainly outside ICP-Brasil; one whose issuer does is only
 * probably inside it (the chain itself is checked by the authority).
 */
export function certificateIcpBrasil(lang: Lang, cert: CertificateFacts | null, sandbox: boolean): DiagnosticCheck {
  if (!cert) return check(lang, 'certificate_icp_brasil', 'skip', 'E07', { 'pt-BR': 'Sem certificado.', en: 'No certificate.' }, null);
  if (/(^|, )O=ICP-Brasil(,|$)/.test(cert.info.issuer)) return check(lang, 'certificate_icp_brasil', 'pass', 'E07', { 'pt-BR': `Emitido por uma AC da ICP-Brasil (${cert.info.issuer}).`, en: `Issued by an ICP-Brasil authority (${cert.info.issuer}).` }, null);
  const message: Text = { 'pt-BR': `O emissor do certificado (${cert.info.issuer}) não é da ICP-Brasil: uma SEFAZ rejeitaria (295).`, en: `The certificate's issuer (${cert.info.issuer}) is not ICP-Brasil: an authority would refuse it (295).` };
  return check(lang, 'certificate_icp_brasil', sandbox ? 'warn' : 'fail', 'E07', message, sandbox
    ? { 'pt-BR': 'Certificado de teste: serve ao sandbox, não à produção.', en: 'A test certificate: fine for the sandbox, not for production.' }
    : { 'pt-BR': 'Use um e-CNPJ A1 emitido na ICP-Brasil.', en: 'Use an ICP-Brasil e-CNPJ A1.' });
}

/** The CSC signs the NFC-e QR code (docs/fiscal/qrcode.md); an NF-e needs none. */
export function cscCheck(lang: Lang, hasCsc: boolean): DiagnosticCheck {
  if (hasCsc) return check(lang, 'csc', 'pass', null, { 'pt-BR': 'CSC cadastrado (QR code da NFC-e).', en: 'CSC registered (NFC-e QR code).' }, null);
  return check(lang, 'csc', 'warn', null, { 'pt-BR': 'Sem CSC: o emissor não emite NFC-e (NF-e e NFS-e não precisam dele).', en: 'No CSC: the issuer cannot issue NFC-e (NF-e and NFS-e need none).' }, { 'pt-BR': 'Gere o CSC no portal da SEFAZ do estado e cadastre: POST /v1/issuers/{id}/csc.', en: 'Generate the CSC on the state authority\'s portal and register it: POST /v1/issuers/{id}/csc.' });
}

export type Reach = { ok: true; host: string; address: string } | { ok: false; host: string; error: string };

/** DNS: the host of the state's status service resolves. */
export function dnsCheck(lang: Lang, id: string, reach: Reach): DiagnosticCheck {
  if (reach.ok) return check(lang, id, 'pass', null, { 'pt-BR': `${reach.host} resolve para ${reach.address}.`, en: `${reach.host} resolves to ${reach.address}.` }, null);
  return check(lang, id, 'fail', null, { 'pt-BR': `${reach.host} não resolve: ${reach.error}.`, en: `${reach.host} does not resolve: ${reach.error}.` }, { 'pt-BR': 'Confira o DNS desta máquina e a saída para a internet (firewall, proxy).', en: 'Check this machine\'s DNS and its way out to the internet (firewall, proxy).' });
}

/** NfeStatusServico4: 107 in operation; 108/109 stopped; no answer (TLS, timeout) said as such. */
export function statusCheck(lang: Lang, id: string, label: string, out: StatusOutcome | null): DiagnosticCheck {
  if (!out) return check(lang, id, 'skip', null, { 'pt-BR': `${label}: sem certificado, o serviço não pode ser consultado (TLS mútuo).`, en: `${label}: without a certificate the service cannot be asked (mutual TLS).` }, null);
  if (out.kind === 'in-operation') return check(lang, id, 'pass', null, { 'pt-BR': `${label}: 107 ${out.xMotivo} (${Math.round(out.timing.elapsedMs)} ms).`, en: `${label}: 107 ${out.xMotivo} (${Math.round(out.timing.elapsedMs)} ms).` }, null);
  if (out.kind === 'stopped') return check(lang, id, 'fail', null, { 'pt-BR': `${label}: ${out.cStat} ${out.xMotivo}.`, en: `${label}: ${out.cStat} ${out.xMotivo}.` }, { 'pt-BR': 'A SEFAZ está fora: com a contingência ligada as NFC-e seguem offline; tente de novo mais tarde.', en: 'The authority is down: with contingency on, NFC-e go on offline; try again later.' });
  const why = out.kind === 'timeout' ? (lang === 'en' ? `no answer (${out.phase} timeout)` : `sem resposta (tempo esgotado na ${out.phase === 'connect' ? 'conexão' : 'resposta'})`) : out.kind === 'unavailable' ? `${out.cStat ?? out.httpStatus ?? ''} ${out.xMotivo}`.trim() : out.reason;
  return check(lang, id, 'fail', null, { 'pt-BR': `${label}: ${why}.`, en: `${label}: ${why}.` }, { 'pt-BR': 'Confira a saída para a internet e o certificado (a SEFAZ derruba no TLS um certificado que não aceita).', en: 'Check the way out to the internet and the certificate (an authority drops a certificate it does not accept in the TLS handshake).' });
}

/** Minutes of skew from which the doctor fails: an NFC-e dated over 5 minutes before reception is refused (B09-40, 704). */
export const CLOCK_FAIL_MS = 5 * 60_000;
/** From one minute the doctor warns: a note dated after the authority's reception is refused (B09-10, 703). */
export const CLOCK_WARN_MS = 60_000;

/** Our clock against the authority's dhRecbto; `uncertaintyMs` is half the round trip plus the 1 s of dhRecbto's resolution. */
export function clockCheck(lang: Lang, skewMs: number | null, uncertaintyMs: number): DiagnosticCheck {
  if (skewMs === null) return check(lang, 'clock', 'skip', 'B09-40', { 'pt-BR': 'Nenhuma SEFAZ respondeu com seu horário.', en: 'No authority answered with its time.' }, null);
  const secs = Math.round(Math.abs(skewMs) / 1000);
  const way = skewMs > 0 ? { 'pt-BR': 'adiantado', en: 'ahead of' } : { 'pt-BR': 'atrasado', en: 'behind' };
  const beyond = Math.abs(skewMs) - uncertaintyMs;
  const text: Text = { 'pt-BR': `O relógio desta máquina está ${way['pt-BR']} ${secs} s em relação à SEFAZ.`, en: `This machine's clock is ${secs} s ${way.en} the authority's.` };
  const fix: Text = { 'pt-BR': 'Sincronize o relógio por NTP (por exemplo a.ntp.br).', en: 'Synchronise the clock with NTP (e.g. a.ntp.br).' };
  if (beyond >= CLOCK_FAIL_MS) return check(lang, 'clock', 'fail', skewMs > 0 ? 'B09-10' : 'B09-40', text, fix);
  if (beyond >= CLOCK_WARN_MS) return check(lang, 'clock', 'warn', skewMs > 0 ? 'B09-10' : 'B09-40', text, fix);
  return check(lang, 'clock', 'pass', 'B09-40', { 'pt-BR': `Relógio em dia com a SEFAZ (diferença de ${secs} s).`, en: `Clock in step with the authority (${secs} s apart).` }, null);
}

/** The report's overall verdict: the worst of its checks (skip counts as nothing). */
export function overall(checks: readonly DiagnosticCheck[]): 'ok' | 'warning' | 'failing' {
  if (checks.some((c) => c.verdict === 'fail')) return 'failing';
  if (checks.some((c) => c.verdict === 'warn')) return 'warning';
  return 'ok';
}
