import { Button, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, idempotencyKey, orThrow, type paths } from '../../api/client.js';
import { ApiError } from '../../components/api-error.js';
import { Loaded, Page } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { formatMoney, formatTaxId } from '../../i18n/format.js';
import { useSession } from '../../session.js';
import { blankItem, decimal, SaleItems, type ItemDraft } from './sale-items.js';
import { useIssuers } from './use-notes.js';

type Sale = paths['/v1/nfce']['post']['requestBody']['content']['application/json'];
type Method = NonNullable<Sale['payment']>['method'];
const METHODS: Method[] = ['dinheiro', 'pix', 'credito', 'debito'];
const SCENARIOS = Object.keys(t.documents.scenarios);

/** A sale from the dashboard: issuer, items, one payment, optionally the consumer; in the sandbox, the authority's scenario. */
export function NewNfce() {
  const issuers = useIssuers();
  return (
    <Page title={t.documents.newTitle}>
      <Loaded query={issuers}>
        {(list) => {
          const ready = list.data.filter((i) => i.ready);
          return ready.length === 0 ? <Text>{t.documents.noIssuers}</Text> : <SaleForm issuers={ready} />;
        }}
      </Loaded>
    </Page>
  );
}

type Issuer = { id: string; razao_social: string; nome_fantasia: string | null; cnpj: string; crt: number };

function SaleForm({ issuers }: { issuers: Issuer[] }) {
  const session = useSession();
  const navigate = useNavigate();
  const sandbox = session.account?.environment !== 'production';
  const [issuerId, setIssuerId] = useState(issuers[0]!.id);
  const crt = issuers.find((i) => i.id === issuerId)?.crt;
  const [items, setItems] = useState<ItemDraft[]>([blankItem(crt)]);
  const [method, setMethod] = useState<Method>('dinheiro');
  const [amount, setAmount] = useState('');
  const [consumer, setConsumer] = useState({ name: '', cpf: '' });
  const [externalRef, setExternalRef] = useState(() => `painel-${Date.now().toString(36)}`);
  const [scenario, setScenario] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // One key per attempt: a double click or a retry of the same sale is issued once; any change is a new sale.
  const key = useRef(idempotencyKey());
  const changed = <T,>(set: (v: T) => void) => (v: T) => {
    key.current = idempotencyKey();
    set(v);
  };
  const total = items.reduce((sum, i) => sum + (decimal(i.quantity) || 0) * (decimal(i.unit_price) || 0), 0);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: Sale = {
        issuer_id: issuerId,
        external_ref: externalRef.trim(),
        items: items.map((i) => ({ description: i.description.trim(), quantity: decimal(i.quantity), unit_price: decimal(i.unit_price), unit: i.unit.trim(), ncm: i.ncm.trim(), cfop: i.cfop.trim(), cst_icms: i.cst_icms.trim() })),
        payment: { method, amount: amount.trim() ? decimal(amount) : Math.round(total * 100) / 100 },
        ...(consumer.name.trim() || consumer.cpf.trim() ? { consumer: { ...(consumer.name.trim() ? { name: consumer.name.trim() } : {}), ...(consumer.cpf.trim() ? { cpf: consumer.cpf.replace(/\D/g, '') } : {}) } } : {}),
      };
      const note = await orThrow(
        api.POST('/v1/nfce', { body, idempotencyKey: key.current, params: { header: sandbox && scenario ? { 'x-sandbox-scenario': scenario } : {} } }),
      );
      navigate(`/documents/nfce/${note.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack gap="md">
        <Paper withBorder p="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <NativeSelect
              label={t.documents.issuer}
              data={issuers.map((i) => ({ value: i.id, label: `${i.nome_fantasia ?? i.razao_social} · ${formatTaxId(i.cnpj)}` }))}
              value={issuerId}
              onChange={(e) => changed(setIssuerId)(e.currentTarget.value)}
            />
            <TextInput label={t.documents.externalRef} required value={externalRef} onChange={(e) => changed(setExternalRef)(e.currentTarget.value)} />
          </SimpleGrid>
        </Paper>
        <SaleItems items={items} onChange={changed(setItems)} />
        <Paper withBorder p="sm">
          <Title order={2} size="h4" mb="xs">
            {t.documents.payment}
          </Title>
          <Text size="sm" mb="xs" data-testid="sale-total">
            {t.documents.saleTotal(formatMoney(total))}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <NativeSelect label={t.documents.paymentMethod} data={METHODS.map((m) => ({ value: m, label: t.documents.methods[m] ?? m }))} value={method} onChange={(e) => changed(setMethod)(e.currentTarget.value as Method)} />
            <TextInput label={t.documents.paymentAmount} description={t.documents.paymentAmountHint} inputMode="decimal" placeholder={total.toFixed(2).replace('.', ',')} value={amount} onChange={(e) => changed(setAmount)(e.currentTarget.value)} />
            <TextInput label={t.documents.consumerName} value={consumer.name} maxLength={60} onChange={(e) => changed(setConsumer)({ ...consumer, name: e.currentTarget.value })} />
            <TextInput label={t.documents.consumerCpf} inputMode="numeric" value={consumer.cpf} onChange={(e) => changed(setConsumer)({ ...consumer, cpf: e.currentTarget.value })} />
          </SimpleGrid>
        </Paper>
        {sandbox && (
          <NativeSelect
            label={t.documents.scenario}
            description={t.documents.scenarioHint}
            data={SCENARIOS.map((s) => ({ value: s, label: t.documents.scenarios[s]! }))}
            value={scenario}
            onChange={(e) => changed(setScenario)(e.currentTarget.value)}
          />
        )}
        <ApiError error={error} />
        <Button type="submit" loading={busy} style={{ alignSelf: 'flex-start' }}>
          {t.documents.issue}
        </Button>
      </Stack>
    </form>
  );
}
