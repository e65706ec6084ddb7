import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';
import { RejectionSchema } from './nfce.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const NfseRejectionSchema = Type.Object(
  {
    ...RejectionSchema.properties,
    code: Type.String({ description: "Sefin's code (Anexo I/II of the national NFS-e)", examples: ['E0714'] }),
    message: Type.String({ description: 'The official message, with the detail Sefin gave' }),
    errors: Type.Optional(Type.Array(Type.Object({ code: Type.String(), message: Type.String(), field: Nullable(Type.String()) }), { description: 'Every error, when Sefin listed several' })),
  },
  { title: 'NfseRejection' },
);

export const NfseRecordSchema = Type.Object(
  {
    id: Type.String({ examples: ['nfse_4kP2xV8mQa1ZtR6bN3cW'] }),
    object: Type.Literal('nfse'),
    status: StringLiterals(['processing', 'authorized', 'rejected', 'canceled'], { description: 'processing -> authorized | rejected; authorized -> canceled' }),
    external_ref: Nullable(Type.String()),
    issuer_id: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
    ambiente: StringLiterals(['producao', 'homologacao']),
    dps: Type.Object(
      {
        id: Type.String({ description: 'The 45-character DPS Id (FACTS 16.3): how Sefin knows the document until it is authorized', examples: ['DPS330455721190597100010500001000000000000001'] }),
        serie: Type.Integer(),
        number: Type.Integer({ description: 'nDPS: gap-free per issuer and series' }),
        issued_at: Type.String({ description: 'dhEmi, with the offset of the issuer\'s municipality' }),
      },
      { title: 'NfseDps' },
    ),
    access_key: Nullable(Type.String({ description: 'The 50-digit NFS-e key Sefin assigns on authorization', examples: ['33045572211905971000105000000000000126030123456789'] })),
    number: Nullable(Type.String({ description: 'nNFSe: the number Sefin assigns' })),
    authorized_at: Nullable(Timestamp),
    xml_url: Type.Optional(Type.String()),
    danfse_url: Type.Optional(Type.String()),
    values: Type.Record(Type.String(), Type.Number(), {
      description: 'Computed figures in reais: vServ, vDescIncond, vDescCond, vDR, vBC, vISSQN, vRetISSQN, vRetPisCofins, vRetFed, vLiq (vISSQN/vRetISSQN/vLiq absent when the rate is left to Sefin); with the reform group (CST 000, competence of 2026) also the IBS/CBS Sefin computes into the NFS-e: vBCIBSCBS, vIBSUF, vIBSMun, vIBSTot, vCBS, vTotNF (docs/fiscal/nfse-reform.md)',
    }),
    tomador: Nullable(Type.Object(
      { name: Nullable(Type.String()), tax_id: Nullable(Type.String({ description: 'CNPJ, CPF or NIF as sent' })) },
      { description: 'The taker the DPS named (null when none)' },
    )),
    rejection: Nullable(NfseRejectionSchema),
    cancellation: Nullable(
      Type.Object(
        {
          reason_code: Nullable(Type.String({ description: 'cMotivo: 1 error, 2 service not provided, 9 other (e101101); 01-05, 99 for a substitution' })),
          reason: Type.String(),
          canceled_at: Timestamp,
          event_id: Nullable(Type.String({ description: 'Id of the registered event (EVT...)' })),
          substituted_by: Nullable(Type.String({ description: 'The NFS-e that replaced this one (event 105102)' })),
        },
        { title: 'NfseCancellation' },
      ),
    ),
    cancellation_pending: Type.Boolean({ description: 'A cancellation was requested and is being sent to Sefin' }),
  },
  { title: 'Nfse' },
);

export const NfseCancelBody = Type.Object(
  {
    reason_code: Type.Optional(
      Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(9)], { description: 'cMotivo of e101101: 1 error in the issuance, 2 service not provided, 9 other (default 1)', examples: [1] }),
    ),
    reason: Type.String({ minLength: 15, maxLength: 255, description: 'xMotivo, 15 to 255 characters', examples: ['Servico nao foi prestado ao tomador'] }),
  },
  { additionalProperties: false },
);

