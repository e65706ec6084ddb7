// What an SVC (docs/fiscal/svc.md) refuses before it reads a note: a state it does not serve, and a state that has
// not activated it. The tpEmis and model rules (B22-60, B22-70) are ide-rules.ts authorizerRejection's.
import type { SvcAuthorizer } from '../fiscal/sefaz/svc-endpoints.js';
import { ufAbbreviation } from '../fiscal/sefaz/endpoints.js';
import { stateFacts } from '../fiscal/states/states.js';
import { motivo } from './cstat-messages.js';

/**
 * MOC 7.0 Anexo I B05 (410): the web service does not serve the cUF of the message. An SVC serves the states the
 * Ato COTEPE 39/2012 gives it (docs/fiscal/svc.md#which-svc-serves-which-state); NT 2013.007 v1.03 (04.1 GB02.1) named
 * this case 582, a code the MOC 7.0 cStat table no longer holds.
 */
export function svcUfRejection(cUF: string, svc: SvcAuthorizer): { cStat: number; xMotivo: string } | null {
  const uf = ufAbbreviation(cUF);
  const served = uf ? stateFacts(uf)?.svc : undefined;
  return served === svc ? null : { cStat: 410, xMotivo: motivo(410) };
}

/**
 * NT 2013.007 v1.03 item 04.1 (C03.2, GB02.2): an SVC that the state of the issuer has not activated refuses the lot
 * with 114; its status service (04.7, K05.1) answers 114 in its own words. Not in the MOC 7.0 Anexo I rule table.
 */
export const SVC_NOT_ACTIVE = 114;
export function svcNotActiveMotivo(svc: SvcAuthorizer, service: 'authorization' | 'status'): string {
  return service === 'status' ? `Rejeição: ${svc} desabilitada pela SEFAZ de Origem` : 'Rejeição: SVC não ativada para a SEFAZ do Emitente';
}

/** The SVC refusal of a message of this cUF, or null: the state it does not serve (410), then not activated (114). */
export function svcRejection(
  cUF: string,
  svc: SvcAuthorizer,
  active: ((uf: string) => boolean) | undefined,
  service: 'authorization' | 'status',
): { cStat: number; xMotivo: string } | null {
  const wrong = svcUfRejection(cUF, svc);
  if (wrong) return wrong;
  const uf = ufAbbreviation(cUF)!;
  return active && !active(uf) ? { cStat: SVC_NOT_ACTIVE, xMotivo: svcNotActiveMotivo(svc, service) } : null;
}

/**
 * NT 2013.007 v1.03 04.7 K05.3: the SVC's status answers 113 when the state's own authorizer is due back within 15
 * minutes, that is in the 15 minutes that precede the deactivation (item 03), during which both environments still
 * authorize. Its words there, with HH:MM the authority's (Brasília) time of the deactivation. Not in the MOC 7.0
 * Anexo I tables (sped-nfe's cstat.json has 113 in the 04.7 A words, "SVC em processo de desativação ...").
 */
export const SVC_DEACTIVATING = 113;
export function svcDeactivatingMotivo(svc: SvcAuthorizer, at: Date): string {
  const hhmm = new Date(at.getTime() - 3 * 3600_000).toISOString().slice(11, 16);
  return `Rejeicao: ${svc} será desabilitada para a UF informada às ${hhmm}`;
}
