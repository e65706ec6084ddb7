import { textOf } from '../fiscal/sefaz/xml-slice.js';
import { authorityTime, retConsSitNFe, retConsStatServ } from './answers.js';
import { motivo } from './cstat-messages.js';
import { fish, type SimContext } from './sim-context.js';
import { checkSchema, isWellFormed } from './xml-checks.js';
import { SVC_DEACTIVATING, svcDeactivatingMotivo, svcRejection } from './svc-rules.js';
import { ufAbbreviation } from '../fiscal/sefaz/endpoints.js';

/**
 * NFeConsultaProtocolo4: the truth about a key after a lost answer - 100/150 with the protocol,
 * 101 canceled with its event, 110/30x denied, 124 only its EPEC, 217 unknown.
 */
export async function handleConsult(payload: string, ctx: SimContext): Promise<string> {
  const key = textOf(payload, 'chNFe') ?? '';
  const head = {
    tpAmb: Number(fish(payload, 'tpAmb', '2')),
    cUF: /^[0-9]{2}/.test(key) ? key.slice(0, 2) : '35',
    dhRecbto: authorityTime(ctx.now()),
    accessKey: /^[0-9A-Z]{44}$/.test(key) ? key : '0'.repeat(44),
  };
  const answer = (cStat: number, prot: string | null = null, events: string[] = []) =>
    retConsSitNFe({ ...head, cStat, xMotivo: motivo(cStat) }, prot, events);
  if (!isWellFormed(payload)) return answer(243);
  if (ctx.scenario?.kind === 'unavailable') return answer(ctx.scenario.cStat);
  if (!checkSchema(payload, 'consSitNFe_v4.00.xsd', ctx.now()).valid) return answer(215);
  if (ctx.scenario?.kind === 'reject') return answer(ctx.scenario.cStat);
  const note = await ctx.store.note(key);
  if (!note) {
    // NT 2014.001 5.6 (docs/fiscal/epec.md): a key that has only its EPEC answers 124 "EPEC Autorizado" with the EPEC's
    // event (the AN shares it with the issuer's state, 6.1). Another key's EPEC for the same number is not this key's.
    const epec = (await ctx.store.epecsOfNumber(key)).find((e) => e.accessKey === key);
    return epec ? answer(124, null, [epec.procXml]) : answer(217);
  }
  const events = await ctx.store.eventsOf(key);
  if (note.status === 'canceled') return answer(101, note.prot_xml, events);
  return answer(note.c_stat, note.prot_xml, events);
}

/** NFeStatusServico4: 107 in operation (108/109 on the unavailable scenario; at an SVC 410, 114 or 113, svc-rules.ts). */
export function handleStatus(payload: string, ctx: SimContext): string {
  const head = { tpAmb: Number(fish(payload, 'tpAmb', '2')), cUF: fish(payload, 'cUF', '35'), dhRecbto: authorityTime(ctx.now()) };
  const answer = (cStat: number, xMotivo = motivo(cStat)) => retConsStatServ({ ...head, cStat, xMotivo });
  if (!isWellFormed(payload)) return answer(243);
  if (ctx.scenario?.kind === 'unavailable') return answer(ctx.scenario.cStat);
  if (!checkSchema(payload, 'consStatServ_v4.00.xsd', ctx.now()).valid) return answer(215);
  // NT 2013.007 04.7: an SVC's status says 114 to a state that has not activated it (K05.1), 410 to one it does not serve.
  const svcRefused = ctx.authorizer && ctx.authorizer !== 'state' ? svcRejection(head.cUF, ctx.authorizer, ctx.svcActive, 'status') : null;
  if (svcRefused) return answer(svcRefused.cStat, svcRefused.xMotivo);
  if (ctx.scenario?.kind === 'reject') return answer(ctx.scenario.cStat);
  // K05.3: a deactivation within 15 minutes is announced with 113 (the SVC still takes notes until then).
  const ending = ctx.authorizer && ctx.authorizer !== 'state' ? ctx.svcDeactivatingAt?.(ufAbbreviation(head.cUF) ?? '') : null;
  if (ending && ctx.authorizer && ctx.authorizer !== 'state') return answer(SVC_DEACTIVATING, svcDeactivatingMotivo(ctx.authorizer, ending));
  return answer(107);
}
