import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { t } from '../../i18n/index.js';
import type { Issuer } from './model.js';
import { NfseForm } from './nfse-form.js';
import { Facts, Section } from './section.js';

/** The issuer's NFS-e settings as the API holds them; members who may change the issuer edit them. */
export function NfseSection({ issuer, canWrite }: { issuer: Issuer; canWrite: boolean }) {
  const n = issuer.nfse;
  const [editing, setEditing] = useState(false);
  const action = canWrite && !editing && (
    <Button variant="light" size="xs" onClick={() => setEditing(true)}>
      {n ? t.issuers.nfseEdit : t.issuers.nfseConfigure}
    </Button>
  );
  return (
    <Section title={t.issuers.nfse} actions={action} testId="nfse">
      {editing ? (
        <NfseForm issuer={issuer} onDone={() => setEditing(false)} />
      ) : n ? (
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
