// ADN contribuintes: GET /contribuintes/DFe/{NSU}?cnpjConsulta=&lote= -> LoteDistribuicaoNSUResponse,
// PascalCase (docs/fiscal/nfse-national.md#calls): the NFS-e and events that involve the CNPJ asked for (cnpjConsulta, else
// the client certificate's), NSU ordered, each document gzip + base64 in ArquivoXml; and
// GET /contribuintes/NFSe/{ChaveAcesso}/Eventos -> the same response with the events of that key.
import type { JsonReply, NfseCaller, NfseSimContext } from './nfse-context.js';
import type { DfeRow } from './nfse-store.js';
import { brasilia, gzipB64, SIM_VERSION } from './nfse-wire.js';

// ADN Contribuinte Swagger, enum TipoEvento: the names of the event codes the simulator registers.
const EVENT_NAMES: Record<string, string> = { '101101': 'CANCELAMENTO', '105102': 'CANCELAMENTO_POR_SUBSTITUICAO' };

function lot(ctx: NfseSimContext, status: string, docs: DfeRow[], erros: Array<{ Codigo: string; Descricao: string }> = []) {
  return {
    StatusProcessamento: status,
    LoteDFe: docs.map((d) => ({
      NSU: Number(d.nsu),
      ChaveAcesso: d.access_key,
      TipoDocumento: d.kind,
      TipoEvento: d.tp_evento ? (EVENT_NAMES[d.tp_evento] ?? null) : null,
      ArquivoXml: gzipB64(d.xml),
      DataHoraGeracao: brasilia(d.created_at),
    })),
    Alertas: [],
    Erros: erros,
    // The simulator stands for restricted production.
    TipoAmbiente: 'HOMOLOGACAO',
    VersaoAplicativo: SIM_VERSION,
    DataHoraProcessamento: brasilia(ctx.now()),
  };
}

export async function distributeDfe(nsuText: string, query: URLSearchParams, ctx: NfseSimContext, caller: NfseCaller): Promise<JsonReply> {
  const party = query.get('cnpjConsulta') || caller.taxId;
  const nsu = Number(nsuText);
  if (!party || !/^[0-9]{11,14}$/.test(party) || !/^[0-9]{1,18}$/.test(nsuText)) {
    const Descricao = !party ? 'cnpjConsulta is required when the certificate names no CNPJ' : 'NSU and cnpjConsulta must be digits';
    return { status: 400, body: lot(ctx, 'REJEICAO', [], [{ Codigo: '', Descricao }]) };
  }
  // `lote` (default true): up to 50 documents from NSU on; false: the document of that NSU only.
  const docs = await ctx.store.documentsFor(party, nsu, query.get('lote') !== 'false');
  if (docs.length === 0) return { status: 404, body: lot(ctx, 'NENHUM_DOCUMENTO_LOCALIZADO', []) };
  return { status: 200, body: lot(ctx, 'DOCUMENTOS_LOCALIZADOS', docs) };
}

/**
 * GET /contribuintes/NFSe/{ChaveAcesso}/Eventos (ADN Contribuinte Swagger: "os Documentos Fiscais de
 * Serviço do tipo Evento vinculados à chave de acesso"): 200 DOCUMENTOS_LOCALIZADOS with the key's
 * events the certificate's CNPJ/CPF is a party to, else 404 NENHUM_DOCUMENTO_LOCALIZADO, the only two
 * answers the Swagger declares (it has no query parameter, so no cnpjConsulta).
 */
export async function eventsOfKey(accessKey: string, ctx: NfseSimContext, caller: NfseCaller): Promise<JsonReply> {
  const docs = caller.taxId ? await ctx.store.eventsOf(accessKey, caller.taxId) : [];
  if (docs.length === 0) return { status: 404, body: lot(ctx, 'NENHUM_DOCUMENTO_LOCALIZADO', []) };
  return { status: 200, body: lot(ctx, 'DOCUMENTOS_LOCALIZADOS', docs) };
}
