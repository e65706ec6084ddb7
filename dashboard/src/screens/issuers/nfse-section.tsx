import { Text } from '@mantine/core';
import { t } from '../../i18n/index.js';
import type { Issuer } from './model.js';
import { Facts, Section } from './section.js';

/** The issuer's NFS-e settings as the API holds them (configured through PATCH /v1/issuers/{id} `nfse`). */
export function NfseSection({ issuer }: { issuer: Issuer }) {
  const n = issuer.nfse;
  return (
    <Section title={t.issuers.nfse} testId="nfse">
      {n ? (
        <Facts
          items={[
            [t.issuers.nfseIm, n.municipal_registration ?? '—'],
            [t.issuers.nfseSimples, n.simples_regime === null ? '—' : (t.issuers.simplesRegime[n.simples_regime] ?? String(n.simples_regime))],
            [t.issuers.nfseSpecial, t.issuers.specialRegime[n.special_regime] ?? String(n.special_regime)],
            [t.issuers.dpsSeries, String(n.dps_series)],
            [t.issuers.nfseSignature, n.signature_profile],
          ]}
        />
      ) : (
        <Text size="sm">{t.issuers.nfseNone}</Text>
      )}
    </Section>
  );
}
