// The read side of Sefin Nacional (docs/fiscal/nfse-national.md#calls): GET/HEAD /dps/{id}, GET /nfse/{chaveAcesso},
// GET /nfse/{chaveAcesso}/eventos/{tipoEvento}/{numSeqEvento}. Errors are ResponseErro; where no
// Anexo code governs a lookup, `descricao` is the Swagger's description of that status.
import { cnpjRootMatches } from '../../fiscal/certificate/pfx.js';
import type { JsonReply, NfseCaller, NfseSimContext } from './nfse-context.js';
import { actorsOf, type NfseRow } from './nfse-store.js';
import { answerHead, gzipB64, NfseRefusal } from './nfse-wire.js';

// The simulator answers in the environment its documents carry; lookups of nothing say restricted production.
const TP_AMB = 2;

function refused(ctx: NfseSimContext, status: number, descricao: string, complemento?: string): JsonReply {
  return { status, body: { ...answerHead(TP_AMB, ctx.now()), erro: { codigo: '', descricao, ...(complemento ? { complemento } : {}) } } };
}

/**
 * Manual Contribuintes APIs 1.4: the key is given only to an actor of the note (provider, taker,
 * intermediary) named by the connection's certificate. Sandbox test certificates name nobody: as
 * on the SEFAZ side, only a certificate that names a CNPJ/CPF can be told apart from the actors. An
 * e-CNPJ speaks for every establishment of its company: the CNPJ root decides (as for E0718 and E0812).
 */
const mayRead = (note: NfseRow, caller: NfseCaller) =>
  caller.taxId === null || actorsOf(note).some((actor) => actor === caller.taxId || (actor.length === 14 && caller.taxId!.length === 14 && cnpjRootMatches(caller.taxId, actor)));

/** GET (or HEAD: same status, no body; any valid certificate may ask) /dps/{id}. */
export async function lookupDps(id: string, ctx: NfseSimContext, caller: NfseCaller, head: boolean): Promise<JsonReply> {
  // XSD TSIdDPS (docs/fiscal/nfse-national.md#dps; letters after inscription type 2, docs/fiscal/nfse-national.md#alphanumeric-cnpj).
  if (!/^DPS[0-9]{7}(?:1[0-9]{14}|2[0-9A-Z]{12}[0-9]{2})[0-9]{20}$/.test(id)) return head ? { status: 400 } : refused(ctx, 400, 'Identificador de DPS inválido', id);
  const note = await ctx.store.byDps(id);
  if (head) return { status: note ? 200 : 404 };
  if (!note) return refused(ctx, 404, 'Não foi gerada uma NFS-e com o identificador de DPS informado', id);
  if (!mayRead(note, caller)) return refused(ctx, 403, 'Consulta desta DPS não é permitida para este usuário.', id);
  return { status: 200, body: { ...answerHead(TP_AMB, ctx.now()), idDps: id, chaveAcesso: note.access_key } };
}

/** GET /nfse/{chaveAcesso}: the NFS-e as generated (its later cancellation is an event, not an edit). */
export async function fetchNfse(key: string, ctx: NfseSimContext, caller: NfseCaller): Promise<JsonReply> {
  if (!/^[0-9]{50}$/.test(key)) return refused(ctx, 400, 'A chave de acesso consultada deve conter 50 números.', key);
  const note = await ctx.store.byKey(key);
  // Anexo I E0044: "NFS-e não existe na base de dados do autorizador de NFS-e nacional".
  if (!note) return { status: 404, body: { ...answerHead(TP_AMB, ctx.now()), erro: new NfseRefusal('E0044', key).item } };
  if (!mayRead(note, caller)) return refused(ctx, 403, 'Consulta desta NFS-e não é permitida para este usuário.', key);
  return { status: 200, body: { ...answerHead(note.tp_amb === 1 ? 1 : 2, ctx.now()), chaveAcesso: key, nfseXmlGZipB64: gzipB64(note.nfse_xml) } };
}

export async function fetchEvent(key: string, tpEvento: string, nSeq: string, ctx: NfseSimContext, caller: NfseCaller): Promise<JsonReply> {
  const note = /^[0-9]{50}$/.test(key) ? await ctx.store.byKey(key) : null;
  if (note && !mayRead(note, caller)) return refused(ctx, 401, 'Usuário não tem permissão para acessar os eventos', key);
  const xml = note && /^[0-9]{6}$/.test(tpEvento) && /^[0-9]{1,3}$/.test(nSeq) ? await ctx.store.event(key, tpEvento, Number(nSeq)) : null;
  if (!xml) return refused(ctx, 404, 'Nenhum evento encontrado para a NFS-e', `${key}/${tpEvento}/${nSeq}`);
  return { status: 200, body: { ...answerHead(TP_AMB, ctx.now()), eventoXmlGZipB64: gzipB64(xml) } };
}
