// POST /SefinNacional/nfse/{chaveAcesso}/eventos {pedidoRegistroEventoXmlGZipB64} (docs/fiscal/nfse-national.md#calls, docs/fiscal/nfse-national.md#events).
// Reception as for a DPS (E1225-E1235 against pedRegEvento_v1.01.xsd), then Anexo II: signature
// mandatory (E1989) and valid (E1980), signer = author (E0812/E0815, E1991), certificate in validity (E1983), Id = PRE + key + tpEvento
// (E1827), the NFS-e exists (E1831), the author is its provider (E0813/E0816: Tipo Eventos names the
// provider as author of 101101), dhEvento not in the future (E1843), and a note already canceled or
// substituted takes no cancellation (E0840), and the event is sent to the environment of the NFS-e
// (E0831). Only 101101 is served: the other events a taxpayer
// sends to Sefin (101103 analysis request) need the tax office's answer, which is not simulated.
import { NFSE_ACCEPTED_PROFILES } from '../../fiscal/xml/nfse/sign-dps.js';
import { verifyXmlSignature } from '../../fiscal/xml/signature/verify.js';
import { cnpjRootMatches } from '../../fiscal/certificate/pfx.js';
import { checkDocument, childOf, textAt } from './document-checks.js';
import { certificateOutOfValidity } from './dps-rules.js';
import type { JsonReply, NfseSimContext } from './nfse-context.js';
import { actorsOf, type NfseRow } from './nfse-store.js';
import { answerHead, decodeXmlField, gzipB64, NfseRefusal, parseJsonObject } from './nfse-wire.js';
import { writeEvento } from './write-evento.js';

const CLOSED_BY: Record<Exclude<NfseRow['status'], 'authorized'>, string> = {
  canceled: 'Cancelamento de NFS-e (101101)',
  substituted: 'Cancelamento de NFS-e por Substituição (105102)',
};

export async function registerEvent(pathKey: string, body: string, ctx: NfseSimContext, rejectCode?: string): Promise<JsonReply> {
  let tpAmb: 1 | 2 = 2;
  try {
    const xml = decodeXmlField(parseJsonObject(body).pedidoRegistroEventoXmlGZipB64);
    const checked = checkDocument(xml, 'pedRegEvento', 'pedRegEvento_v1.01.xsd');
    const inf = childOf(checked.root, 'infPedReg')!;
    const t = (path: string) => textAt(inf, path);
    tpAmb = t('tpAmb') === '1' ? 1 : 2;
    if (rejectCode) throw new NfseRefusal(rejectCode, 'scenario reject');
    if (!childOf(checked.root, 'Signature')) throw new NfseRefusal('E1989');
    const verdict = verifyXmlSignature(xml, { signedElements: [['pedRegEvento', 'infPedReg']], profiles: NFSE_ACCEPTED_PROFILES });
    if (!verdict.valid) throw new NfseRefusal(verdict.reason === 'no_signature' ? 'E1989' : 'E1980', verdict.detail);
    const [cnpjAutor, cpfAutor] = [t('CNPJAutor'), t('CPFAutor')];
    const cert = verdict.certificate;
    if (cnpjAutor && cert?.cnpj && !cnpjRootMatches(cert.cnpj, cnpjAutor)) throw new NfseRefusal('E0812', `certificate ${cert.cnpj}, author ${cnpjAutor}`);
    if (cpfAutor && cert?.cpf && cert.cpf !== cpfAutor) throw new NfseRefusal('E0815', `certificate ${cert.cpf}, author ${cpfAutor}`);
    // E1991: signed with the certificate of the event's author: an e-CPF does not sign for a CNPJ author, nor an
    // e-CNPJ for a CPF one (a sandbox test certificate naming neither is let through, as for E0812/E0815).
    if (cert && ((cnpjAutor && !cert.cnpj && cert.cpf) || (cpfAutor && !cert.cpf && cert.cnpj))) {
      throw new NfseRefusal('E1991', `certificate of ${cert.cnpj ? `CNPJ ${cert.cnpj}` : `CPF ${cert.cpf}`}, author ${cnpjAutor ?? cpfAutor}`);
    }
    // E1983: the certificate within its validity at the reception (chain, revocation, CRL: Sefin's trust store).
    const outOfValidity = cert && certificateOutOfValidity(cert, ctx.now());
    if (outOfValidity) throw new NfseRefusal('E1983', outOfValidity);
    const key = t('chNFSe')!;
    // The schema admits one eXXXXXX group after chNFSe: its name is the event type.
    const group = Array.from(inf.childNodes).find((n) => /^e[0-9]{6}$/.test((n as { localName?: string }).localName ?? ''));
    const tpEvento = (group as { localName?: string } | undefined)?.localName?.slice(1) ?? '';
    const preId = inf.getAttribute('Id') ?? '';
    if (preId !== `PRE${key}${tpEvento}`) throw new NfseRefusal('E1827', `Id ${preId}, fields give PRE${key}${tpEvento}`);
    if (key !== pathKey) throw new NfseRefusal('E1831', `chNFSe ${key} is not the key of the address (${pathKey})`);
    const note = await ctx.store.byKey(key);
    if (!note) throw new NfseRefusal('E1831', key);
    // E0831: the event goes to the environment that generated the NFS-e (one simulator plays both).
    if (note.tp_amb !== tpAmb) throw new NfseRefusal('E0831', `event tpAmb ${tpAmb}, NFS-e generated with tpAmb ${note.tp_amb}`);
    if (tpEvento !== '101101') throw new NfseRefusal('E1242', `event ${tpEvento} is not served by the simulator (only 101101)`);
    const author = cnpjAutor ?? cpfAutor ?? '';
    if (author !== note.tax_id) throw new NfseRefusal(cnpjAutor ? 'E0813' : 'E0816', `author ${author}, provider ${note.tax_id}`);
    const at = ctx.now();
    if (Date.parse(t('dhEvento')!) > at.getTime()) throw new NfseRefusal('E1843', `dhEvento ${t('dhEvento')!}`);
    if (note.status !== 'authorized') throw new NfseRefusal('E0840', `evento vinculado: ${CLOSED_BY[note.status]}`);
    const eventXml = await ctx.store.transaction(async (tx) => {
      const nDFSe = await ctx.store.nextNsu(tx);
      // nSeqEvento 001: a cancellation happens once (TCInfEvento documentation).
      const out = writeEvento({ preId, nSeq: 1, nDFSe, processedAt: at, pedRegText: checked.text }, ctx.signingKey);
      if (!(await ctx.store.close(tx, key, 'canceled'))) throw new NfseRefusal('E0840', 'evento vinculado: Cancelamento de NFS-e (101101)');
      await ctx.store.insertEvent(tx, { accessKey: key, tpEvento, nSeq: 1, xml: out, registeredAt: at });
      await ctx.store.distribute(tx, nDFSe, { accessKey: key, kind: 'EVENTO', tpEvento, parties: actorsOf(note), xml: out, at });
      return out;
    });
    ctx.counters.nfseEvents += 1;
    return { status: 201, body: { ...answerHead(tpAmb, at), eventoXmlGZipB64: gzipB64(eventXml) } };
  } catch (err) {
    if (!(err instanceof NfseRefusal)) throw err;
    ctx.counters.nfseRejections += 1;
    // ResponseErro: a single `erro` (docs/fiscal/nfse-national.md#calls).
    return { status: err.status, body: { ...answerHead(tpAmb, ctx.now()), erro: err.item } };
  }
}
