import { Text } from '@mantine/core';
import { Page } from '../../components/page.js';

// Area "security": its screens are being built (issue 20); this page only marks the route.
export default function Area() {
  return (
    <Page title="security">
      <Text>Em construção.</Text>
    </Page>
  );
}
