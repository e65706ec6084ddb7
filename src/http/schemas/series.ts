import { Type } from 'typebox';
import { MAX_NUMBER, OWN_SERIES_MAX, OWN_SERIES_MIN } from '../../fiscal/layout/series-range.js';
import { Timestamp } from './common.js';

// An issuer's NF-e (55) and NFC-e (65) series (docs/fiscal/series.md).

const Model = Type.Union([Type.Literal(55), Type.Literal(65)], { description: '55 NF-e, 65 NFC-e' });
export const SeriesNumber = Type.Integer({
  minimum: OWN_SERIES_MIN,
  maximum: OWN_SERIES_MAX,
  description: `Series ${OWN_SERIES_MIN}-${OWN_SERIES_MAX}: an issuer with a CNPJ numbering from its own software (890-899 are the fisco's avulsa, 900-999 SCAN, 910-969 issuers with a CPF)`,
  examples: [2],
});
const NextNumber = Type.Integer({ minimum: 1, maximum: MAX_NUMBER, description: 'The number the next sale of the series takes', examples: [1] });
const Range = Type.Object({ from: Type.Integer(), to: Type.Integer() });

export const SeriesParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  model: Type.Union([Type.Literal('55'), Type.Literal('65')]),
  series: Type.String({ pattern: '^(0|[1-9][0-9]{0,2})$', description: 'The series number (0-889)' }),
});

export const CreateSeriesBody = Type.Object(
  { model: Model, series: SeriesNumber, next_number: Type.Optional(NextNumber) },
  { additionalProperties: false },
);

export const PatchSeriesBody = Type.Object(
  {
    next_number: Type.Optional(NextNumber),
    retired: Type.Optional(Type.Boolean({ description: 'true: no sale is numbered in the series any more; false opens it again' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

const seriesFields = {
  object: Type.Literal('series'),
  issuer_id: Type.String(),
  model: Model,
  series: Type.Integer(),
  next_number: Type.Integer({ description: 'The number the next sale takes from the counter (a number a rejected sale released goes first)' }),
  highest_used: Type.Union([Type.Integer(), Type.Null()], { description: 'The highest number a note holds (authorized, processing, contingency, denied or canceled)' }),
  voided_ahead: Type.Array(Range, { description: 'Ranges voided (inutilizados) ahead of next_number: the counter steps over them' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('retired')]),
  default: Type.Boolean({ description: 'Series 1, which every issuer has: a sale naming no series is numbered in it' }),
  created_at: Type.Union([Timestamp, Type.Null()]),
  retired_at: Type.Union([Timestamp, Type.Null()]),
};

export const SeriesRecordSchema = Type.Object(seriesFields, { title: 'Series' });

export const SeriesChangeSchema = Type.Object(
  {
    ...seriesFields,
    gaps: Type.Array(Range, {
      description: 'Numbers the change skipped, neither used nor voided: void them (POST /v1/issuers/:id/inutilization or /nfe-inutilization) by void_by',
    }),
    void_by: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'The 10th day of the next month (Ajuste SINIEF 07/05 cl. 14ª, 19/16 cl. 16ª)' }),
  },
  { title: 'SeriesChange' },
);

export const SeriesList = Type.Object({ data: Type.Array(SeriesRecordSchema) }, { title: 'SeriesList' });
