import type { IssuerForEmission } from '../../../kernel/issuer.js';
import type { IssueDeps } from '../../notes/services/issue-note.js';
import { nfeRoute, svcOf } from '../domain/svc-route.js';
import { NFE_MODEL } from './nfe-deps.js';

// B28-40 (569): dhCont may not be more than 30 days before the reception; an older opening of the
// breaker is written as the moment of this emission's switch instead.
const MAX_DHCONT_AGE_MS = 30 * 24 * 3600_000;

/** xJust of an SVC note (15-256 characters, leiauteNFe_v4.00.xsd): why the state's authorizer was not used. */
export function svcReason(uf: string): string {
  return `Autorizador da SEFAZ ${uf} indisponivel; emissao em contingencia ${svcOf(uf)}`;
}

/** xJust of an EPEC note (15-256 characters, MOC B28-20): why the state's authorizer was not used (docs/fiscal/epec.md). */
export function epecReason(uf: string): string {
  return `Autorizador da SEFAZ ${uf} indisponivel; emissao em contingencia EPEC`;
}

/**
 * A new NF-e goes to its state's SVC (docs/fiscal/svc.md) while the state's NF-e authorization breaker
 * is open (several calls in a row went unanswered, from any process): nfeRoute decides, dhCont is when
 * the breaker opened (the gateway's switch), xJust says why. Closed again: back to the state (tpEmis 1).
 * An issuer that chose EPEC gets tpEmis 4 instead (docs/fiscal/epec.md).
 */
export async function svcContingencyAtOnce(
  deps: IssueDeps,
  issuer: IssuerForEmission,
  caller: string,
  // The state answered a send of this note 108/109 (its service paralysed): down now, whatever the breaker says.
  opts: { stateSaidDown?: boolean } = {},
): Promise<{ at: Date; reason: string; kind: 'svc' | 'epec' } | undefined> {
  if (!deps.breaker) return undefined;
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;
  // The caller (certificate and account) scopes the breaker in the sandbox only (breaker-key.ts).
  const target = { uf: issuer.uf, model: NFE_MODEL, tpAmb, service: 'autorizacao', certificate: caller } as const;
  const route = nfeRoute({ uf: issuer.uf, stateBreakerOpen: opts.stateSaidDown === true || (await deps.breaker.isOpen(target)) });
  if (route.action !== 'send' || route.to === 'state') return undefined;
  const now = deps.clock.now();
  const opened = deps.breaker.openedAt(target);
  const at = opened && opened.getTime() <= now.getTime() && now.getTime() - opened.getTime() < MAX_DHCONT_AGE_MS ? opened : now;
  // The issuer chose EPEC (issuers.nfe_contingency): tpEmis 4, its EPEC registered at the Ambiente Nacional
  // by the authorization job before the note goes to the state (docs/fiscal/epec.md).
  if (issuer.nfe_contingency === 'epec') return { at, reason: epecReason(issuer.uf), kind: 'epec' };
  return { at, reason: svcReason(issuer.uf), kind: 'svc' };
}
