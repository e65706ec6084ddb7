import { Button, Center } from '@mantine/core';
import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { t } from '../../i18n/index.js';

interface Page<T> {
  data: T[];
  has_more: boolean;
}

/**
 * A cursor-paged list of the API (`limit` + `starting_after`, `has_more`), as one array: pages the
 * member asked for with "Carregar mais" stay loaded. `refetchInterval` keeps a live list fresh.
 */
export function usePaged<T extends { id: string }>(queryKey: QueryKey, load: (startingAfter: string | undefined) => Promise<Page<T>>, refetchInterval?: number | false) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => load(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    refetchInterval,
  });
  const items = query.data?.pages.flatMap((p) => p.data);
  return { ...query, items, data: items };
}

/** "Carregar mais" under a paged list, while the API says another page follows. */
export function MoreButton({ paged }: { paged: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  if (!paged.hasNextPage) return null;
  return (
    <Center>
      <Button variant="light" loading={paged.isFetchingNextPage} onClick={() => void paged.fetchNextPage()}>
        {t.more}
      </Button>
    </Center>
  );
}
