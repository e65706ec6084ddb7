// Received documents on demand (sandbox, tests): the simulator holds an NF-e issued by another
// company to a given recipient, so that recipient's NFeDistribuicaoDFe and manifestation have
// something to work on. Either the simulator issues it (nfe55-template.ts, signed with the
// simulator's own certificate as the supplier's, authorised with its protocol), or it takes a
// signed nfeProc whose NF-e signature verifies and whose protocol authorised it.
import { randomInt } from 'node:crypto';
import { sliceElement, textOf } from '../fiscal/sefaz/xml-slice.js';
import { signElement, type SigningKey } from '../fiscal/xml/signature/sign.js';
import { authorityTime, protNFe } from './answers.js';
import { motivo } from './cstat-messages.js';
import { nfe55Xml } from './nfe55-template.js';
import { nfeElementsOf } from './nfe-facts.js';
import { recipientOf, recordReceivedNote } from './received-documents.js';
import { checkEnvelopedSignatureOffLoop } from './signature-check.js';
import type { SimStore } from './sim-store.js';
import { OPERATOR_TENANT, TENANT_ID } from './tenant.js';

/** The simulated supplier (valid check digits; not a real company's CNPJ in the RFB sense of the tests). */
export const THIRD_PARTY_CNPJ = '11444777000161';

export interface HoldNoteInput {
  /** The recipient (dest) of the note: its CNPJ (or CPF). */
  recipient: { CNPJ: string } | { CPF: string };
  /** A signed nfeProc to hold instead of issuing one (its dest must be the recipient). */
  nfeProcXml?: string;
  /** The tenant whose recipient receives it (tenant.ts; an account id); absent: the operator's (''). */
  tenant?: string;
}

export interface HeldNote {
  accessKey: string;
  nProt: string;
}

export class HoldNoteError extends Error {}

export async function holdThirdPartyNote(
  base: { store: SimStore; signingKey: SigningKey; now: () => Date },
  input: HoldNoteInput,
): Promise<HeldNote> {
  if (input.tenant !== undefined && !TENANT_ID.test(input.tenant)) throw new HoldNoteError('tenant must be 1-64 letters, digits, _ or -');
  const ctx = { ...base, store: base.store.forTenant(input.tenant ?? OPERATOR_TENANT) };
  const recipient = 'CNPJ' in input.recipient ? input.recipient.CNPJ : input.recipient.CPF;
  if (!/^([0-9A-Z]{12}[0-9]{2}|[0-9]{11})$/.test(recipient)) throw new HoldNoteError('recipient must be a CNPJ (14) or CPF (11)');
  const at = ctx.now();
  let nfe: string;
  let prot: string;
  if (input.nfeProcXml) {
    nfe = nfeElementsOf(input.nfeProcXml)[0] ?? '';
    prot = sliceElement(input.nfeProcXml, 'protNFe')?.outer ?? '';
    const signature = await checkEnvelopedSignatureOffLoop(nfe, 'infNFe');
    if (!signature.ok) throw new HoldNoteError(`the NF-e signature does not verify (${signature.cStat}: ${signature.reason})`);
    const id = /<infNFe[^>]*\sId="NFe([0-9A-Z]{44})"/.exec(nfe)?.[1];
    if (!id || textOf(prot, 'chNFe') !== id || !['100', '150'].includes(textOf(prot, 'cStat') ?? '')) {
      throw new HoldNoteError('nfeProc must carry an NF-e and the protocol (cStat 100/150) that authorised its key');
    }
    if (recipientOf(nfe) !== recipient) throw new HoldNoteError('the NF-e dest is not the recipient');
  } else {
    const built = nfe55Xml({ emitCnpj: THIRD_PARTY_CNPJ, dest: input.recipient, nNF: randomInt(1, 999_999_999), dhEmi: at });
    const signed = signElement(built.xml, 'infNFe', ctx.signingKey);
    nfe = signed.xml;
    prot = protNFe(
      { tpAmb: 2, accessKey: built.accessKey, dhRecbto: authorityTime(at), nProt: await ctx.store.nextProtocol('43', at), digVal: signed.digestValue, cStat: 100, xMotivo: motivo(100) },
      ctx.signingKey,
    );
  }
  const accessKey = textOf(prot, 'chNFe')!;
  const nProt = textOf(prot, 'nProt') ?? '';
  const dhRecbto = Date.parse(textOf(prot, 'dhRecbto') ?? '');
  const authorizedAt = Number.isFinite(dhRecbto) ? new Date(dhRecbto) : at;
  const tpAmb = Number(textOf(prot, 'tpAmb') ?? 2);
  const claimed = await ctx.store.claimNote({
    access_key: accessKey, cnpj: textOf(sliceElement(nfe, 'emit')?.outer ?? '', 'CNPJ') ?? '', model: 55,
    serie: Number(textOf(nfe, 'serie')), nnf: Number(textOf(nfe, 'nNF')), tp_amb: tpAmb, tp_emis: Number(textOf(nfe, 'tpEmis')),
    status: 'authorized', c_stat: Number(textOf(prot, 'cStat')), n_prot: nProt, authorized_at: authorizedAt, prot_xml: prot,
  });
  if (!claimed) throw new HoldNoteError('the simulator already holds this key or number');
  await recordReceivedNote(ctx.store, { nfeXml: nfe, protNFeXml: prot, tpAmb, authorizedAt });
  return { accessKey, nProt };
}
