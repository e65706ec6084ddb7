import { ActionIcon, Button, Group, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { t } from '../../i18n/index.js';

export interface ItemDraft {
  description: string;
  quantity: string;
  unit_price: string;
  unit: string;
  ncm: string;
  cfop: string;
  cst_icms: string;
}

/**
 * A sensible sandbox item (test/support/nfce-fixtures.ts): roasted coffee, NCM 0901.21.00, CFOP 5102
 * (resale inside the state); CSOSN 102 for a Simples Nacional issuer, CST 40 (exempt, no rate to give)
 * for a regime-normal one.
 */
export function blankItem(crt: number | undefined): ItemDraft {
  return { description: '', quantity: '1', unit_price: '', unit: 'UN', ncm: '09012100', cfop: '5102', cst_icms: crt === 3 ? '40' : '102' };
}

/** "12,50" or "12.50" as a number (NaN when it is not one). */
export function decimal(s: string): number {
  const v = s.trim();
  return Number(v.includes(',') ? v.replace(/\./g, '').replace(',', '.') : v);
}

/** The items of the sale, one card each; at least one stays. */
export function SaleItems({ items, onChange }: { items: ItemDraft[]; onChange: (items: ItemDraft[]) => void }) {
  const set = (i: number, k: keyof ItemDraft) => (e: { currentTarget: { value: string } }) => onChange(items.map((it, j) => (j === i ? { ...it, [k]: e.currentTarget.value } : it)));
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t.documents.items}
      </Title>
      {items.map((item, i) => (
        <Paper withBorder p="sm" key={i} component="fieldset" aria-label={t.documents.item(i + 1)} style={{ minWidth: 0 }}>
          <Group justify="space-between" mb="xs">
            <Title order={3} size="h5">
              {t.documents.item(i + 1)}
            </Title>
            {items.length > 1 && (
              <ActionIcon variant="subtle" color="red" aria-label={t.documents.removeItem(i + 1)} onClick={() => onChange(items.filter((_, j) => j !== i))}>
                ×
              </ActionIcon>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs">
            <TextInput label={t.documents.description} required value={item.description} onChange={set(i, 'description')} maxLength={120} />
            <TextInput label={t.documents.quantity} required inputMode="decimal" value={item.quantity} onChange={set(i, 'quantity')} />
            <TextInput label={t.documents.unitPrice} required inputMode="decimal" value={item.unit_price} onChange={set(i, 'unit_price')} />
            <TextInput label={t.documents.unit} required value={item.unit} onChange={set(i, 'unit')} maxLength={6} />
            <TextInput label={t.documents.ncm} required inputMode="numeric" value={item.ncm} onChange={set(i, 'ncm')} maxLength={8} />
            <TextInput label={t.documents.cfop} required inputMode="numeric" value={item.cfop} onChange={set(i, 'cfop')} maxLength={4} />
            <TextInput label={t.documents.cstIcms} required inputMode="numeric" value={item.cst_icms} onChange={set(i, 'cst_icms')} maxLength={3} />
          </SimpleGrid>
        </Paper>
      ))}
      <Button variant="light" onClick={() => onChange([...items, blankItem(items[0]?.cst_icms === '40' ? 3 : 1)])} style={{ alignSelf: 'flex-start' }}>
        {t.documents.addItem}
      </Button>
    </Stack>
  );
}
