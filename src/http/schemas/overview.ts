import { Type, type TSchema } from 'typebox';
import { PLAN_IDS } from '../../platform/billing/plans.js';
import { UsageLine } from './billing.js';
import { StringLiterals, Timestamp } from './common.js';
import { NfceStatusSchema } from './nfce.js';

const DocumentType = StringLiterals(['nfce', 'nfe', 'nfse'] as const, { description: 'nfce (model 65), nfe (model 55) or nfse (NFS-e Padrão Nacional)' });
const Section = <T extends TSchema>(t: T, what: string, needs: string) =>
  Type.Union([t, Type.Null()], { description: `${what} Null when the caller's scopes do not read it (${needs}).` });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const CountLine = Type.Object({ type: DocumentType, status: NfceStatusSchema, count: Type.Integer({ minimum: 1 }) }, { title: 'OverviewCount' });

export const OverviewSchema = Type.Object(
  {
    object: Type.Literal('overview'),
    at: Timestamp,
    time_zone: Type.Literal('America/Sao_Paulo', { description: 'The calendar of "today" and "this month"' }),
    today: Type.Object(
      { date: Type.String({ description: 'YYYY-MM-DD' }), start: Timestamp, end: Timestamp },
      { description: 'Today: from start (inclusive) to end (exclusive), São Paulo calendar' },
    ),
    month: Type.Object(
      { period: Type.String({ description: 'YYYY-MM: the billing period' }), start: Timestamp, end: Timestamp },
      { description: "This month so far: from start (inclusive) to today's end (exclusive)" },
    ),
    documents: Section(
      Type.Object(
        {
          types: Type.Array(DocumentType, { description: 'The types counted: those the caller reads' }),
          today: Type.Array(CountLine, { description: 'Notes created today, by type and status (only non-zero lines)' }),
          month: Type.Array(CountLine, { description: 'Notes created this month, by type and status (only non-zero lines)' }),
        },
      ),
      'Documents by type and status.',
      'nfce:read, nfe:read or nfse:read',
    ),
    latency: Section(
      Type.Object(
        {
          count: Type.Integer({ description: 'Notes measured' }),
          p50_ms: Nullable(Type.Integer({ description: 'Median, milliseconds; null without notes' })),
          p95_ms: Nullable(Type.Integer({ description: '95th percentile, milliseconds; null without notes' })),
        },
      ),
      "From creation to the authority's receipt time (dhRecbto, whole seconds) over the notes created today and authorized, offline contingency ones left out.",
      'a document read scope',
    ),
    rejections: Section(
      Type.Object(
        {
          month_total: Type.Integer({ description: 'Notes created this month and rejected' }),
          top: Type.Array(
            Type.Object({
              code: Type.String({ description: "The authority's code (cStat, or the NFS-e's E-code)" }),
              message: Type.String({ description: "The authority's message of the latest such rejection" }),
              count: Type.Integer(),
              types: Type.Array(DocumentType, { description: 'Types it was seen on' }),
            }, { title: 'OverviewRejectionCause' }),
            { description: 'The 5 most frequent causes this month, most frequent first' },
          ),
        },
      ),
      'Rejections this month.',
      'a document read scope',
    ),
    contingency: Section(
      Type.Object(
        {
          outstanding: Type.Integer({ description: 'Notes in offline contingency the authority has not taken yet' }),
          notes: Type.Array(
            Type.Object({
              id: Type.String(),
              type: DocumentType,
              issuer_id: Type.String(),
              serie: Type.Integer(),
              number: Type.Integer(),
              entered_at: Nullable(Type.String({ format: 'date-time' })),
              deadline_at: Nullable(Type.String({ format: 'date-time', description: 'The transmission deadline' })),
            }, { title: 'OverviewContingencyNote' }),
            { description: 'The first 20, nearest deadline first' },
          ),
          has_more: Type.Boolean({ description: 'More than the 20 listed: GET /v1/nfce?status=contingency' }),
        },
      ),
      'Offline contingency.',
      'a document read scope',
    ),
    certificates: Section(
      Type.Array(
        Type.Object({
          issuer_id: Type.String(),
          razao_social: Type.String(),
          cnpj: Type.String(),
          not_after: Timestamp,
          expired: Type.Boolean(),
          days_left: Type.Integer({ description: 'Whole days until not_after (0 when expired)' }),
        }, { title: 'OverviewCertificate' }),
      ),
      'Issuers whose certificate expires within 30 days or has expired, soonest first (20 at most).',
      'issuers:read',
    ),
    usage: Section(
      Type.Object(
        {
          period: Type.String({ description: 'YYYY-MM' }),
          plan: Type.Object({ id: StringLiterals(PLAN_IDS), name: Type.String() }),
          sandbox: Type.Boolean({ description: 'A sandbox account: never billed' }),
          hard_cap: Type.Boolean({ description: 'Documents past the quota are refused instead of billed' }),
          lines: Type.Array(UsageLine, { description: 'Included and used per type (GET /v1/billing/usage has the details)' }),
        },
      ),
      "Usage against the plan's quota this period.",
      'billing:read',
    ),
  },
  { title: 'Overview' },
);
