// The read side of Sefin Nacional (FACTS 16.2): GET/HEAD /dps/{id}, GET /nfse/{chaveAcesso},
// GET /nfse/{chaveAcesso}/eventos/{tipoEvento}/{numSeqEvento}. Not found is 404 with ResponseErro.
import type { JsonReply, NfseSimContext } from './nfse-context.js';
import { answerHead, gzipB64, NfseRefusal } from './nfse-wire.js';

// The simulator answers in the environment its documents carry; lookups of nothing say restricted production.
const TP_AMB = 2;

function notFound(ctx: NfseSimContext, erro: { codigo: string; descricao: string; complemento?: string }): JsonReply {
  return { status: 404, body: { ...answerHead(TP_AMB, ctx.now()), erro } };
}

/** GET (or HEAD: same status, no body) /dps/{id}: the key of the NFS-e generated from this DPS. */
export async function lookupDps(id: string, ctx: NfseSimContext, head: boolean): Promise<JsonReply> {
  const key = await ctx.store.keyOfDps(id);
  if (head) return { status: key ? 200 : 404 };
  // No Anexo code says "no NFS-e from this DPS": the description is the simulator's wording.
  if (!key) return notFound(ctx, { codigo: '', descricao: 'Nenhuma NFS-e foi gerada a partir da DPS informada.', complemento: id });
  return { status: 200, body: { ...answerHead(TP_AMB, ctx.now()), idDps: id, chaveAcesso: key } };
}

/** GET /nfse/{chaveAcesso}: the NFS-e as generated (its later cancellation is an event, not an edit). */
export async function fetchNfse(key: string, ctx: NfseSimContext): Promise<JsonReply> {
  const note = await ctx.store.byKey(key);
  // Anexo I E0044: "NFS-e não existe na base de dados do autorizador de NFS-e nacional".
  if (!note) return notFound(ctx, new NfseRefusal('E0044', key).item);
  return { status: 200, body: { ...answerHead(note.tp_amb === 1 ? 1 : 2, ctx.now()), chaveAcesso: key, nfseXmlGZipB64: gzipB64(note.nfse_xml) } };
}

export async function fetchEvent(key: string, tpEvento: string, nSeq: string, ctx: NfseSimContext): Promise<JsonReply> {
  const xml = /^[0-9]{6}$/.test(tpEvento) && /^[0-9]{1,3}$/.test(nSeq) ? await ctx.store.event(key, tpEvento, Number(nSeq)) : null;
  if (!xml) return notFound(ctx, { codigo: '', descricao: 'Evento não encontrado para a NFS-e informada.', complemento: `${key}/${tpEvento}/${nSeq}` });
  return { status: 200, body: { ...answerHead(TP_AMB, ctx.now()), eventoXmlGZipB64: gzipB64(xml) } };
}
