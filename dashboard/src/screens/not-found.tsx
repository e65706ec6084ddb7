import { Text } from '@mantine/core';
import { Page } from '../components/page.js';
import { t } from '../i18n/index.js';

export function NotFound() {
  return (
    <Page title={t.notFound}>
      <Text>{t.notFound}</Text>
    </Page>
  );
}

export function Forbidden() {
  return (
    <Page title={t.forbidden}>
      <Text>{t.forbidden}</Text>
    </Page>
  );
}
