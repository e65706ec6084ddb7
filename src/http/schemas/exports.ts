import { Type } from 'typebox';
import { EXPORT_KINDS } from '../../platform/exports/export-rules.js';
import { ListOf, ListQuery, StringLiterals, Timestamp } from './common.js';

const Kind = StringLiterals(EXPORT_KINDS, {
  description: '`nfce`, `nfe`, `nfse`: the notes of that family (authorized, canceled with their cancellation event, denied; an NF-e with its registered CC-e); ' +
    '`inutilization`: the voided number ranges (ProcInutNFe); `received`: the NF-e received from suppliers whose full XML was downloaded',
});

export const CreateExportBody = Type.Object(
  {
    issuer_id: Type.String({ maxLength: 64, description: 'The issuer whose documents go in (one of this account\'s; another\'s is 404)', examples: ['iss_4Hq2a8Lm0ZbT1cV9xYwE'] }),
    month: Type.String({ maxLength: 7, description: 'The month, YYYY-MM, of the documents\' issue date (dhEmi; a voided range: the authority\'s dhRecbto). Not a month still to come', examples: ['2026-10'] }),
    kinds: Type.Optional(Type.Array(Kind, { minItems: 1, maxItems: EXPORT_KINDS.length, uniqueItems: true, description: 'What the ZIP holds; every kind when absent', examples: [['nfce', 'nfe', 'inutilization']] })),
  },
  { additionalProperties: false },
);

export const ExportSchema = Type.Object(
  {
    id: Type.String({ examples: ['exp_7Tq1bN0aK2mZcV8yXwR3'] }),
    object: Type.Literal('export'),
    issuer_id: Type.String(),
    month: Type.String({ examples: ['2026-10'] }),
    kinds: Type.Array(Kind),
    status: StringLiterals(['queued', 'building', 'ready', 'failed', 'expired'] as const, {
      description: '`queued` -> `building` -> `ready` (download it until `expires_at`) or `failed` (see `error`); a ready ZIP past `expires_at` is `expired` (ask again)',
    }),
    progress: Type.Object({
      files_done: Type.Integer({ description: 'Files written into the ZIP so far (counted as each 1 MiB piece is stored)' }),
      files_total: Type.Union([Type.Integer(), Type.Null()], { description: 'Files the ZIP will hold, manifest.csv included (null until the build starts)' }),
    }),
    size_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Size of the ZIP once ready' }),
    sha256: Type.Union([Type.String(), Type.Null()], { description: 'SHA-256 of the ZIP (hex) once ready' }),
    error: Type.Union([Type.Object({ code: Type.String({ examples: ['export_too_large'] }), message: Type.String() }), Type.Null()]),
    download_url: Type.Union([Type.String(), Type.Null()], { description: 'GET it for the ZIP once ready', examples: ['/v1/exports/exp_7Tq1bN0aK2mZcV8yXwR3/download'] }),
    created_at: Timestamp,
    finished_at: Type.Union([Timestamp, Type.Null()]),
    expires_at: Type.Union([Timestamp, Type.Null()], { description: 'A ready export\'s ZIP is kept until then (7 days after it is ready); the XMLs themselves are kept for good' }),
  },
  { title: 'Export' },
);

export const ExportList = ListOf(ExportSchema, 'ExportList');

export const ExportListQuery = Type.Object(
  {
    ...ListQuery.properties,
    issuer_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only this issuer\'s exports' })),
  },
  { additionalProperties: false },
);
