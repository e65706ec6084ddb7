import type { ErrorCode } from '../../kernel/errors.js';
import type { Translations } from './template-catalog.js';

// The envelope's `message` in Brazilian Portuguese. A sentence the catalog below
// knows is translated as such; any other falls back to the sentence of its code, so a pt-BR client
// never reads English in `message` (the code stays the stable, English key).

/** One sentence per error code (every code of kernel/errors.ts: the Record type holds it). */
export const ERROR_MESSAGES_PT_BR: Record<ErrorCode, string> = {
  invalid_json: 'O corpo da requisição não é um JSON válido.',
  invalid_request: 'Requisição malformada.',
  idempotency_key_invalid: 'O cabeçalho Idempotency-Key é inválido.',
  invalid_token: 'O link ou código é desconhecido, expirou ou já foi usado.',
  unauthorized: 'Chave de API ou sessão ausente ou inválida; entre de novo.',
  plan_limit_reached: 'O limite do seu plano foi atingido; os detalhes dizem qual.',
  quota_exceeded: 'A cota do plano para este tipo de documento acabou neste mês (a conta definiu um limite rígido).',
  forbidden: 'Você não tem permissão para esta operação.',
  reauthentication_required: 'Esta ação precisa de uma autenticação recente: confirme sua senha, código TOTP ou passkey e tente de novo.',
  email_not_verified: 'Confirme seu e-mail primeiro: abra o link que enviamos (ou peça outro).',
  sso_required: 'Esta conta exige entrada por login único (SSO).',
  account_closed: 'A conta foi encerrada: seus documentos podem ser consultados, mas nada novo é criado.',
  exceeds_own_rights: 'Isto daria permissões que você mesmo não tem.',
  not_found: 'Não encontrado.',
  method_not_allowed: 'Método não permitido nesta rota.',
  request_timeout: 'A requisição demorou demais para chegar.',
  invalid_state: 'A operação não é possível no estado atual do registro.',
  idempotency_in_progress: 'Uma requisição com a mesma Idempotency-Key ainda está em andamento; tente de novo em instantes.',
  duplicate_external_ref: 'Já existe uma nota ativa deste emitente e modelo com este external_ref; details[0].note_id indica qual.',
  series_exists: 'O emitente já tem esta série.',
  series_number_used: 'O próximo número precisa ser maior que os números já usados ou inutilizados da série.',
  issuer_exists: 'A conta já tem um emitente com este CNPJ e ambiente.',
  plan_limits_exceeded: 'A conta excede os limites do plano escolhido; os detalhes dizem o que remover.',
  issuer_archived: 'O emitente está arquivado: só pode ser consultado.',
  email_taken: 'Já existe um usuário com este e-mail.',
  shared_sandbox_read_only: 'A chave pública de sandbox é compartilhada: não pode alterar o que todos usam.',
  key_provider_not_configured: 'Este gateway não tem um provedor de chaves (HSM/KMS) configurado.',
  payload_too_large: 'O corpo da requisição é maior que o limite.',
  unsupported_media_type: 'Content-Type não suportado; envie application/json.',
  headers_too_large: 'Os cabeçalhos da requisição são maiores que o limite.',
  validation_error: 'A requisição tem campos inválidos; os detalhes indicam cada um.',
  idempotency_conflict: 'Esta Idempotency-Key já foi usada com outra requisição.',
  issuer_not_ready: 'O emitente ainda não está pronto para emitir; os detalhes dizem o que falta.',
  certificate_invalid: 'O certificado não é válido.',
  cancel_window_expired: 'O prazo de cancelamento já passou.',
  rate_limited: 'Limite de requisições atingido; tente de novo após o tempo indicado em Retry-After.',
  invite_limit_reached: 'Convites demais nas últimas 24 horas; tente de novo após o tempo indicado em Retry-After.',
  internal_error: 'Algo deu errado do nosso lado; o request_id nos ajuda a encontrar o problema.',
  authority_unavailable: 'A autoridade fiscal não está respondendo; tente de novo em instantes.',
  service_unavailable: 'Serviço temporariamente indisponível; tente de novo em instantes.',
  key_custody_unavailable: 'O HSM ou KMS que guarda as chaves dos certificados não pode ser usado agora; tente de novo em instantes.',
};

/** Envelope sentences the gateway writes, by their English text (templates: `{}` per value). */
export const ENVELOPE_MESSAGES_PT_BR: Translations = {
  // src/platform/issuers/manage-issuers.ts (contingency.mode)
  'epec needs a state that runs an NFC-e EPEC service (SP); {} runs none (MOC B22-34, 714): choose offline or off':
    'epec exige um estado que tenha o serviço de EPEC da NFC-e (SP); {} não tem (MOC B22-34, 714): escolha offline ou off',
  // src/http/plugins/error-handler.ts, src/app.ts
  'The body is not valid JSON': 'O corpo da requisição não é um JSON válido.',
  'The body is empty but Content-Type says JSON': 'O corpo está vazio, mas o Content-Type diz JSON.',
  'The body is larger than the limit': 'O corpo da requisição é maior que o limite.',
  'Unsupported Content-Type; send application/json': 'Content-Type não suportado; envie application/json.',
  'Content-Length does not match the body': 'O Content-Length não corresponde ao corpo.',
  'Invalid Content-Type header': 'Cabeçalho Content-Type inválido.',
  'Malformed URL': 'URL malformada.',
  'Malformed request': 'Requisição malformada.',
  'No record with this id': 'Nenhum registro com este id.',
  'This operation expects multipart/form-data': 'Esta operação espera multipart/form-data.',
  'The uploaded file is larger than the limit': 'O arquivo enviado é maior que o limite.',
  'Too many parts in the multipart body': 'Partes demais no corpo multipart.',
  'Too many files in the multipart body': 'Arquivos demais no corpo multipart.',
  'Too many fields in the multipart body': 'Campos demais no corpo multipart.',
  'The body contains a forbidden property name (__proto__ or constructor)': 'O corpo contém um nome de propriedade proibido (__proto__ ou constructor).',
  'The request is invalid': 'A requisição é inválida.',
  'Something went wrong on our side; the request id helps us find it': 'Algo deu errado do nosso lado; o request_id nos ajuda a encontrar o problema.',
  'The HSM or KMS that holds the certificate keys cannot be used right now; retry shortly': 'O HSM ou KMS que guarda as chaves dos certificados não pode ser usado agora; tente de novo em instantes.',
  '{} is not allowed on {}; it answers {}': '{} não é permitido em {}; esta rota atende {}.',
  'No route {} {}': 'Não há rota {} {}.',
  '{} not found': 'Não encontrado: {}.',
  // src/fiscal/certificate/pfx.ts, src/platform/issuers/upload-certificate.ts (said by the dashboard before)
  'The certificate password is wrong.': 'A senha do certificado está errada.',
  'The file is not a valid PKCS#12 (.pfx/.p12) certificate.': 'O arquivo não é um certificado PKCS#12 (.pfx/.p12) válido.',
  'The certificate file does not contain its private key.': 'O arquivo do certificado não contém a chave privada.',
  'The file does not contain the certificate of its private key.': 'O arquivo não contém o certificado da sua chave privada.',
  'The certificate expired on {}; upload a current A1 certificate.': 'O certificado venceu em {}; envie um certificado A1 dentro da validade.',
  'The certificate is valid only from {}; upload it from that day on.': 'O certificado só vale a partir de {}; envie-o a partir desse dia.',
  "This is a certificate authority's certificate (basicConstraints CA:TRUE); the authority refuses documents signed with it (290). Upload the A1 certificate issued to the company.":
    'Este é o certificado de uma autoridade certificadora (basicConstraints CA:TRUE); a SEFAZ recusa documentos assinados com ele (290). Envie o certificado A1 emitido para a empresa.',
  'Too many certificate files are being checked right now; try again in a few seconds.': 'Muitos certificados sendo verificados agora; tente de novo em alguns segundos.',
  // src/http/plugins/auth.ts, rate-limit.ts and the sign-in services
  'Confirm your e-mail first: open the link we sent{}': 'Confirme seu e-mail primeiro: abra o link que enviamos (ou peça outro).',
  'The session expired or was revoked: sign in again{}': 'A sessão expirou ou foi encerrada: entre de novo.',
  'Your role ({}) does not allow this: it needs the scope {}': 'Seu papel ({}) não permite isto: é preciso o escopo {}.',
  'Rate limit of {} requests per minute for this session exceeded; retry in {} s': 'Limite de {} requisições por minuto desta sessão atingido; tente de novo em {} s.',
  'Sign in again': 'Entre de novo.',
  'Wrong password': 'Senha errada.',
  'Wrong e-mail or password': 'E-mail ou senha incorretos.',
  'Wrong or already used code': 'Código errado ou já usado.',
  'Wrong or already used code ({} tries left for this sign-in)': 'Código errado ou já usado ({} tentativas restantes para esta entrada).',
  'Too many failed sign-ins: try again in {} s': 'Tentativas de entrada malsucedidas demais: tente de novo em {} s.',
  'Too many failed sign-ins from this browser: try again in {} s': 'Tentativas de entrada malsucedidas demais neste navegador: tente de novo em {} s.',
  'Too many wrong codes: try again in {} s': 'Códigos errados demais: tente de novo em {} s.',
  'You are not a member of this account': 'Você não é membro desta conta.',
  'You are not a member of any account; ask an owner for an invite': 'Você não é membro de nenhuma conta; peça um convite a um proprietário.',
  'The refresh token is invalid, expired or revoked: sign in again': 'O refresh token é inválido, expirou ou foi revogado: entre de novo.',
};

/** The summary of a validation_error: the first field's problem and how many more there are. */
export function summarizeDetailsPtBr(first: { field: string; message: string } | undefined, count: number): string {
  if (!first) return 'A requisição é inválida.';
  const more = count > 1 ? ` (e mais ${count - 1} problema${count > 2 ? 's' : ''})` : '';
  return `${first.field} ${first.message}${more}`;
}
