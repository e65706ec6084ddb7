import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';
import { noteRecordFields } from './nfce.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const CorrectionSchema = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1, maximum: 20, description: 'nSeqEvento of the letter in force' }),
    text: Type.String({ description: 'The consolidated correction in force: each letter replaces the previous one' }),
    protocolo: Type.String(),
    registered_at: Timestamp,
  },
  { title: 'NfeCorrection' },
);

export const CorrectionLetterSchema = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1, maximum: 20 }),
    text: Type.String(),
    status: StringLiterals(['pending', 'registered', 'rejected'], { description: 'pending while it is sent; registered (135/136) or rejected by the authority' }),
    requested_at: Timestamp,
    protocolo: Nullable(Type.String()),
    registered_at: Nullable(Timestamp),
    rejection: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  },
  { title: 'NfeCorrectionLetter' },
);

export const SvcContingencySchema = Type.Object(
  {
    type: StringLiterals(['svc_an', 'svc_rs', 'epec'], { description: 'The contingency: the SVC that received the NF-e, svc_an (tpEmis 6) or svc_rs (tpEmis 7) by the issuer\'s state, or epec (tpEmis 4: its EPEC registered at the Ambiente Nacional, the note sent to the state once it answers)' }),
    entered_at: Type.String({ format: 'date-time', description: 'dhCont: when the gateway switched to the SVC (the state\'s authorizer stopped answering)', examples: ['2026-11-26T13:58:00-03:00'] }),
    reason: Type.String({ description: 'xJust: why the state\'s authorizer was not used', examples: ['Autorizador da SEFAZ SP indisponivel; emissao em contingencia SVC-AN'] }),
    protocol: Type.Optional(Nullable(Type.String({ description: 'epec only: the EPEC\'s protocol at the Ambiente Nacional (event 110140); null until registered', examples: ['891260000000123'] }))),
    registered_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'epec only: when the Ambiente Nacional registered the EPEC; null until then' }))),
  },
  { title: 'NfeContingency', description: 'NF-e contingency (docs/guides/nfe.md): present when the NF-e was issued for the SVC, or in EPEC, because the state\'s authorizer was down' },
);

export const NfeRecordSchema = Type.Object(
  {
    ...noteRecordFields('nfe'),
    destinatario: Nullable(Type.Object({
      name: Nullable(Type.String()),
      tax_id: Nullable(Type.String({ description: 'CNPJ, CPF or foreign id as sent' })),
    })),
    correction: Nullable(CorrectionSchema),
    corrections: Type.Array(CorrectionLetterSchema, { description: 'Every correction letter (CC-e, event 110110), oldest first' }),
    contingency: Nullable(SvcContingencySchema),
  },
  { title: 'Nfe' },
);

export const CorrectionBody = Type.Object(
  {
    correction: Type.String({
      minLength: 15,
      maxLength: 1000,
      description: 'What to correct (xCorrecao), 15 to 1000 characters',
      examples: ['Endereco do destinatario: onde se le Rua A, 1, leia-se Rua A, 10'],
    }),
    mode: Type.Optional(StringLiterals(['append', 'replace'], {
      description: 'append (default): the corrections in force followed by this one; replace: this text alone becomes the letter in force',
    })),
  },
  { additionalProperties: false },
);

export const ReceivedNfeSchema = Type.Object(
  {
    id: Type.String({ examples: ['nfer_4kP2xV8mQa1ZtR6bN3cW'] }),
    object: Type.Literal('nfe_received'),
    issuer_id: Type.String({ description: 'The issuer of this account the NF-e is addressed to' }),
    access_key: Type.String(),
    nsu: Type.String({ description: 'NSU of the first document of this NF-e the national environment distributed' }),
    emitente: Type.Object({ cnpj: Nullable(Type.String()), name: Nullable(Type.String()) }),
    issued_at: Nullable(Type.String({ description: 'dhEmi as issued' })),
    total: Nullable(Type.Number({ description: 'vNF, reais' })),
    situation: Nullable(StringLiterals(['authorized', 'denied', 'canceled'])),
    manifestation: Nullable(Type.Object({ type: Type.String(), protocolo: Type.String(), registered_at: Timestamp }, { description: 'The manifestation in force (the last registered)' })),
    manifestations: Type.Array(Type.Object({
      type: Type.String(), status: StringLiterals(['pending', 'registered', 'rejected']), requested_at: Timestamp, protocolo: Nullable(Type.String()),
      rejection: Nullable(Type.Object({ code: Type.String(), message: Type.String() })), event_id: Type.String(),
    })),
    xml_url: Nullable(Type.String({ description: 'The full nfeProc, once downloadable (after ciencia or confirmacao)' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'NfeReceived' },
);

export const ManifestationBody = Type.Object(
  {
    type: StringLiterals(['confirmacao', 'ciencia', 'desconhecimento', 'nao_realizada'], {
      description: 'confirmacao 210200 (operation confirmed), ciencia 210210 (awareness), desconhecimento 210220 (unknown operation), nao_realizada 210240 (operation not performed)',
    }),
    justification: Type.Optional(Type.String({ minLength: 15, maxLength: 255, description: 'Required for nao_realizada, optional for desconhecimento (xJust)' })),
  },
  { additionalProperties: false },
);
