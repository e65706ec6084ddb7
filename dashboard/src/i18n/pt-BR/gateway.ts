// The gateway's own sentences that reach the dashboard in English (issue 31 item 2): error messages,
// field details and the events' timeline. The API still answers them in English (an Accept-Language
// choice is the larger design, not done yet); the dashboard says the ones it knows in Portuguese and
// shows any other as the gateway wrote it. Each pattern matches a whole sentence written in src/.
type Rule = readonly [RegExp, (...parts: string[]) => string];

const isoDay = (d: string) => d.split('-').reverse().join('/');

export const gateway: readonly Rule[] = [
  // src/fiscal/certificate/pfx.ts, src/platform/issuers/upload-certificate.ts
  [/^The certificate password is wrong\.$/, () => 'A senha do certificado está errada.'],
  [/^The file is not a valid PKCS#12 \(\.pfx\/\.p12\) certificate\.$/, () => 'O arquivo não é um certificado PKCS#12 (.pfx/.p12) válido.'],
  [/^The certificate file does not contain its private key\.$/, () => 'O arquivo do certificado não contém a chave privada.'],
  [/^The file does not contain the certificate of its private key\.$/, () => 'O arquivo não contém o certificado da sua chave privada.'],
  [/^The certificate expired on (\d{4}-\d{2}-\d{2}); upload a current A1 certificate\.$/, (d) => `O certificado venceu em ${isoDay(d!)}; envie um certificado A1 dentro da validade.`],
  [/^The certificate is valid only from (\d{4}-\d{2}-\d{2}); upload it from that day on\.$/, (d) => `O certificado só vale a partir de ${isoDay(d!)}; envie-o a partir desse dia.`],
  [/^This is a certificate authority's certificate \(basicConstraints CA:TRUE\); the authority refuses documents signed with it \(290\)\. Upload the A1 certificate issued to the company\.$/,
    () => 'Este é o certificado de uma autoridade certificadora (basicConstraints CA:TRUE); a SEFAZ recusa documentos assinados com ele (290). Envie o certificado A1 emitido para a empresa.'],
  [/^Too many certificate files are being checked right now; try again in a few seconds\.$/, () => 'Muitos certificados sendo verificados agora; tente de novo em alguns segundos.'],
  // src/documents/*/services: the lines of a note's timeline the gateway writes itself (the authority's own are in Portuguese)
  [/^sent to the authority \(attempt (\d+)\)$/, (n) => `enviada à SEFAZ (tentativa ${n})`],
  [/^lot received: receipt (\S+)$/, (r) => `lote recebido: recibo ${r}`],
  [/^DPS sent to Sefin Nacional \(attempt (\d+)\)$/, (n) => `DPS enviada à Sefin Nacional (tentativa ${n})`],
  [/^(NF-e|NFC-e|NFS-e) (\d+) series (\d+) signed$/, (kind, n, s) => `${kind} ${n} série ${s} assinada`],
  [/^cancellation not confirmed: (\S+)$/, (why) => `cancelamento não confirmado: ${why}`],
  [/^correction letter (\d+) not confirmed: (\S+)$/, (n, why) => `carta de correção ${n} não confirmada: ${why}`],
  [/^Sefin asked to wait (\d+) s \(Retry-After\)$/, (s) => `a Sefin Nacional pediu para aguardar ${s} s (Retry-After)`],
  // src/http/plugins/auth.ts, rate-limit.ts
  [/^Confirm your e-mail first: open the link we sent/, () => 'Confirme seu e-mail primeiro: abra o link que enviamos (ou peça outro).'],
  [/^The session expired or was revoked: sign in again/, () => 'A sessão expirou ou foi encerrada: entre de novo.'],
  [/^Your role \((\w+)\) does not allow this: it needs the scope (.+)$/, (role, scope) => `Seu papel (${role}) não permite isto: é preciso o escopo ${scope}.`],
  [/^Rate limit of (\d+) requests per minute for this session exceeded; retry in (\d+) s$/, (n, s) => `Limite de ${n} requisições por minuto desta sessão atingido; tente de novo em ${s} s.`],
];
