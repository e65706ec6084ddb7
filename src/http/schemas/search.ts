import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';

const KINDS = ['nfce', 'nfe', 'nfse', 'issuer', 'event', 'nfe_received', 'nfe_correction', 'nfe_manifestation', 'inutilization'] as const;
const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const SearchQuerySchema = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'What to look for, 1-200 characters: words (accents and case ignored, Portuguese stemming; `"quoted phrase"`, `or` and `-word` as in web search), ' +
        'or a number: CNPJ/CPF with or without punctuation, access key (44 digits), NFS-e key (50 digits) or DPS Id (45 characters), protocol, note number, external_ref. ' +
        'Numbers of 4 or more characters also match as a prefix.',
      examples: ['pao frances', '12.345.678/0001-90'],
    }),
    type: Type.Optional(StringLiterals(KINDS, { description: 'Only this kind of result' })),
    issuer_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only results of this issuer: its notes, events, received NF-e, correction letters, inutilizations and the issuer itself' })),
    status: Type.Optional(Type.String({ maxLength: 40, description: "A note's status (authorized, rejected, canceled ...) or an event's type (rejected, authorized ...)" })),
    'created_at[gte]': Type.Optional(Type.String({ format: 'date-time', description: 'Created (an event: happened) at or after (ISO 8601)' })),
    'created_at[lt]': Type.Optional(Type.String({ format: 'date-time', description: 'Created (an event: happened) before (ISO 8601)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)' })),
    starting_after: Type.Optional(Type.String({ maxLength: 64, description: 'Id of the last result of the previous page (same q and filters)' })),
  },
  { additionalProperties: false },
);

export const SearchResultSchema = Type.Object(
  {
    object: Type.Literal('search_result'),
    type: StringLiterals(KINDS, {
      description:
        'nfce, nfe, nfse (a note), issuer, event (an entry of a note\'s history), nfe_received (an NF-e another company addressed to an issuer), ' +
        'nfe_correction (a correction letter, CC-e), nfe_manifestation (the recipient\'s manifestation on a received NF-e) or inutilization (a voided range of numbers)',
    }),
    id: Type.String({ description: 'The id of the note, issuer, event, received NF-e, correction letter or inutilization', examples: ['nfce_01J...'] }),
    title: Type.String({
      description:
        "One line naming the result: the note (model, number, series, party), the issuer's name, the event and its note, the received NF-e " +
        '(number, series, supplier), the letter and its note, or the voided range',
    }),
    snippet: Type.String({
      description:
        'Text of the result around what matched, HTML-escaped (`&lt;` `&gt;` `&amp;`), with each match wrapped in `<mark>` and `</mark>`; ' +
        'fragments are joined by ` … `. Safe to insert as HTML.',
    }),
    url: Type.String({
      description: "The API path of the result (an event: its note's history; a correction letter: its NF-e; a received NF-e: /v1/nfe/received/:id; an inutilization: /v1/inutilizations/:id)",
      examples: ['/v1/nfce/nfce_01J...'],
    }),
    matched: StringLiterals(['identifier', 'identifier_prefix', 'text', 'similar'] as const, {
      description: 'Why it matched: an identifier exactly, an identifier by prefix, the words, or a name spelled alike (typo tolerance)',
    }),
    score: Type.Number({ description: 'Relevance, higher first: 100+ exact identifier, 10+ identifier prefix, below 10 words and similar names' }),
    issuer_id: NullableString('The issuer of the note or event (the issuer itself for an issuer; the recipient issuer for a received NF-e)'),
    note_id: NullableString('The note, for a note, an event or a correction letter'),
    status: NullableString(
      "The note's status, the event's type, a received NF-e's situation (authorized, denied, canceled), a letter's status (pending, registered, " +
        'rejected) or an inutilization\'s (voided, rejected); null for an issuer',
    ),
    created_at: Timestamp,
  },
  { title: 'SearchResult' },
);
