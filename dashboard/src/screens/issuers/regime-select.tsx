import { NativeSelect } from '@mantine/core';
import { t } from '../../i18n/index.js';
import type { CreateIssuerBody } from './model.js';

type Regime = CreateIssuerBody['regime_tributario'];
const REGIMES: Regime[] = ['simples', 'simples_excesso', 'normal', 'mei'];

export function RegimeSelect({ value, error, onChange }: { value: Regime; error?: string; onChange: (r: Regime) => void }) {
  return (
    <NativeSelect
      label={t.issuers.regimeLabel}
      required
      value={value}
      error={error}
      data={REGIMES.map((r) => ({ value: r, label: t.issuers.regime[r]! }))}
      onChange={(e) => onChange(e.currentTarget.value as Regime)}
    />
  );
}
