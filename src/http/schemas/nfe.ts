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

export const NfeRecordSchema = Type.Object(
  {
    ...noteRecordFields('nfe'),
    destinatario: Nullable(Type.Object({
      name: Nullable(Type.String()),
      tax_id: Nullable(Type.String({ description: 'CNPJ, CPF or foreign id as sent' })),
    })),
    correction: Nullable(CorrectionSchema),
    corrections: Type.Array(CorrectionLetterSchema, { description: 'Every correction letter (CC-e, event 110110), oldest first' }),
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
