import { Text } from '@mantine/core';
import { Page } from '../../components/page.js';

// Area "overview": its screens are being built (issue 20); this page only marks the route.
export default function Area() {
  return (
    <Page title="overview">
      <Text>Em construção.</Text>
    </Page>
  );
}
