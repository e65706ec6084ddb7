import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, orThrow } from '../../api/client.js';
import { Loaded } from '../../components/page.js';
import { t } from '../../i18n/index.js';
import { formatDateTime } from '../../i18n/format.js';
import { isFamily } from './families.js';
import { StatusBadge } from './status-badge.js';

/** The dashboard path of a result: a note, or the note an event belongs to. Issuers are not listed here. */
function resultPath(r: { type: string; id: string; note_id: string | null; url: string }): string | null {
  if (isFamily(r.type)) return `/documents/${r.type}/${r.id}`;
  const family = r.url.match(/^\/v1\/(nfce|nfe|nfse)\//)?.[1];
  return r.type === 'event' && family && r.note_id ? `/documents/${family}/${r.note_id}` : null;
}

/** GET /v1/search over the account's notes (customers, items, numbers, keys), each result opening its note. */
export function SearchBox() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const query = useQuery({
    queryKey: ['documents', 'search', q],
    queryFn: () => orThrow(api.GET('/v1/search', { params: { query: { q, limit: 20 } } })),
    enabled: q !== '',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQ(text.trim());
  };
  return (
    <Stack gap="xs">
      <form onSubmit={submit} role="search">
        <Group align="end" gap="xs" wrap="nowrap">
          <TextInput style={{ flex: 1 }} label={t.documents.searchLabel} placeholder={t.documents.searchPlaceholder} value={text} onChange={(e) => setText(e.currentTarget.value)} />
          <Button type="submit" variant="light">
            {t.documents.search}
          </Button>
        </Group>
      </form>
      {q !== '' && (
        <Paper withBorder p="sm">
          <Title order={2} size="h4" mb="xs">
            {t.documents.searchResults}
          </Title>
          <Loaded query={query}>
            {(page) => {
              const hits = page.data.flatMap((r) => {
                const to = resultPath(r);
                return to ? [{ ...r, to }] : [];
              });
              if (hits.length === 0) return <Text size="sm">{t.documents.searchEmpty}</Text>;
              return (
                <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="search-results">
                  {hits.map((r) => (
                    <li key={r.id}>
                      <Group gap="xs" wrap="wrap">
                        <Anchor component={Link} to={r.to} fw={600}>
                          {r.title}
                        </Anchor>
                        {r.status && r.type !== 'event' && <StatusBadge status={r.status} />}
                        <Text size="xs">{formatDateTime(r.created_at)}</Text>
                      </Group>
                      {/* The API escapes the snippet and wraps matches in <mark>: safe as HTML (schema SearchResult.snippet). */}
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }} dangerouslySetInnerHTML={{ __html: r.snippet }} />
                    </li>
                  ))}
                </Stack>
              );
            }}
          </Loaded>
        </Paper>
      )}
    </Stack>
  );
}
