import { TemplateCatalog, type Translations } from './template-catalog.js';

// The lines of a note's history (GET /v1/{nfce,nfe,nfse}/:id/events) that the gateway writes itself, in
// English as stored (webhooks and logs keep them so); said in pt-BR to a reader who asks. The
// authority's own lines (its xMotivo, the reform and CC-e lines written in Portuguese) are never
// translated. Each key is a whole sentence written in src/documents/**/services.
const HISTORY_PT_BR: Translations = {
  'sent to the authority (attempt {})': 'enviada à SEFAZ (tentativa {})',
  'EPEC registered at the Ambiente Nacional: {}': 'EPEC registrado no Ambiente Nacional: {}',
  'EPEC not confirmed by the Ambiente Nacional: {}': 'EPEC não confirmado pelo Ambiente Nacional: {}',
  "EPEC registered with the state's NFC-e EPEC service: {}": 'EPEC registrado no serviço de EPEC da NFC-e da SEFAZ: {}',
  "EPEC not confirmed by the state's EPEC service: {}": 'EPEC não confirmado pelo serviço de EPEC da SEFAZ: {}',
  'EPEC already registered (an earlier answer was lost): {}': 'EPEC já registrado (uma resposta anterior se perdeu): {}',
  "EPEC protocol read from the state's consultation of the key": 'protocolo do EPEC lido na consulta da chave à SEFAZ',
  'lot received: receipt {}': 'lote recebido: recibo {}',
  'DPS sent to Sefin Nacional (attempt {})': 'DPS enviada à Sefin Nacional (tentativa {})',
  '{} {} series {} signed': '{} {} série {} assinada',
  'cancellation not confirmed: {}': 'cancelamento não confirmado: {}',
  'correction letter {} not confirmed: {}': 'carta de correção {} não confirmada: {}',
  'event {} {} not confirmed: {}': 'evento {} {} não confirmado: {}',
  'delivery event {} {} not confirmed: {}': 'evento de entrega {} {} não confirmado: {}',
  'Sefin asked to wait {} s (Retry-After)': 'a Sefin Nacional pediu para aguardar {} s (Retry-After)',
  '110112 not registered yet ({})': '110112 ainda não registrado ({})',
  'number {}: {}': 'número {}: {}',
  'number {} voided (inutilization {})': 'número {} inutilizado (inutilização {})',
  'number {} voided (inutilization)': 'número {} inutilizado (inutilização)',
  'number {} of the first attempt voided (inutilization {})': 'número {} da primeira tentativa inutilizado (inutilização {})',
  'number {} of the first attempt voided (inutilization)': 'número {} da primeira tentativa inutilizado (inutilização)',
  "the contingency document was refused, but the first attempt ({}, protocol {}) is authorized: it is the sale's valid NFC-e":
    'o documento de contingência foi recusado, mas a primeira tentativa ({}, protocolo {}) está autorizada: ela é a NFC-e válida da venda',
  'the first attempt ({}) had been authorized: canceled by substitution': 'a primeira tentativa ({}) já estava autorizada: cancelada por substituição',
  'corrected document received after rejection {}; transmitted again': 'documento corrigido recebido após a rejeição {}; transmitido de novo',
  'issued in EPEC contingency as number {} ({}); the first attempt, number {}, is settled apart':
    'emitida em contingência EPEC com o número {} ({}); a primeira tentativa, número {}, é resolvida à parte',
  'issued in offline contingency as number {} ({}); the first attempt, number {}, is settled apart':
    'emitida em contingência offline com o número {} ({}); a primeira tentativa, número {}, é resolvida à parte',
  "the state's authorizer did not take key {}; issued again for {} as key {} ({})":
    'o autorizador da SEFAZ do estado não recebeu a chave {}; emitida de novo para a {} com a chave {} ({})',
  "{} did not take key {}; the state's authorizer answers again: issued again for it as key {}":
    '{} não recebeu a chave {}; o autorizador da SEFAZ voltou a responder: emitida de novo para ele com a chave {}',
  'issued offline by the point of sale as number {}, series {} ({})': 'emitida offline pelo ponto de venda com o número {}, série {} ({})',
  'issued offline by the point of sale as number {}, series {} ({}); received after the transmission deadline {} (the authority may answer 150)':
    'emitida offline pelo ponto de venda com o número {}, série {} ({}); recebida depois do prazo de transmissão {} (a SEFAZ pode responder 150)',
  'not yet accepted by the authority; the transmission deadline is {}': 'ainda não aceita pela SEFAZ; o prazo de transmissão é {}',
  'the QR code was signed with a CSC the authority no longer accepts; signed again with CSC {} and sent again under the same number':
    'o QR Code foi assinado com um CSC que a SEFAZ não aceita mais; assinada de novo com o CSC {} e reenviada com o mesmo número',
  'DPS {}: {}': 'DPS {}: {}',
  'NFS-e {} authorized': 'NFS-e {} autorizada',
  'NFS-e {} authorized (recovered by its DPS Id)': 'NFS-e {} autorizada (recuperada pelo Id da DPS)',
  'NFS-e {} authorized; alerts: {}': 'NFS-e {} autorizada; alertas: {}',
  'NFS-e {} authorized (recovered by its DPS Id); alerts: {}': 'NFS-e {} autorizada (recuperada pelo Id da DPS); alertas: {}',
};

/** A value inside those sentences said in pt-BR: what the connection to the authority came to. */
const OUTCOMES_PT_BR: Readonly<Record<string, string>> = {
  timeout: 'sem resposta no prazo',
  unavailable: 'serviço indisponível',
  unknown: 'resposta desconhecida',
  'lost-response': 'resposta perdida',
  found: 'encontrada',
  'not-found': 'não encontrada',
  'NF-e': 'NF-e',
  'NFC-e': 'NFC-e',
};

export const HISTORY_CATALOG_PT_BR = new TemplateCatalog([HISTORY_PT_BR], (v) => OUTCOMES_PT_BR[v] ?? v);

/** The keys, for the test that holds them against the sentences of src/. */
export const HISTORY_SENTENCES = Object.keys(HISTORY_PT_BR);
