import { Type } from 'typebox';
import { Timestamp } from './common.js';

export const IssuerDiagnostics = Type.Object(
  {
    object: Type.Literal('issuer_diagnostics'),
    issuer_id: Type.String(),
    environment: Type.Enum(['producao', 'homologacao']),
    checked_at: Timestamp,
    verdict: Type.Enum(['ok', 'warning', 'failing'], { description: 'The worst verdict of the checks' }),
    checks: Type.Array(
      Type.Object({
        id: Type.String({ description: 'Stable identifier: certificate_validity, certificate_holder, certificate_key_usage, certificate_icp_brasil, csc, dns, authority_nfe, authority_nfce, clock' }),
        verdict: Type.Enum(['pass', 'warn', 'fail', 'skip']),
        rule: Type.Union([Type.String(), Type.Null()], { description: 'The MOC 7.0 Anexo I rule a failure would meet (E01, E02, E03, E07, F03, B09-10, B09-40)' }),
        message: Type.String({ description: 'What was found, in the language of Accept-Language (pt-BR or en)' }),
        action: Type.Union([Type.String(), Type.Null()], { description: 'What to do; null when nothing is to be done' }),
      }),
    ),
  },
  { title: 'IssuerDiagnostics' },
);
