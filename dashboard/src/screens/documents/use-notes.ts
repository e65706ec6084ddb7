import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, orThrow } from '../../api/client.js';
import { isSettling, type AnyRecord, type Family, type ListQuery, type NoteEvent } from './families.js';

// The SDK's paths are literal types: one call per family keeps every answer typed.
function fetchNote(family: Family, id: string): Promise<AnyRecord> {
  const params = { params: { path: { id } } };
  if (family === 'nfce') return orThrow(api.GET('/v1/nfce/{id}', params));
  if (family === 'nfe') return orThrow(api.GET('/v1/nfe/{id}', params));
  return orThrow(api.GET('/v1/nfse/{id}', params));
}

function fetchList(family: Family, query: ListQuery): Promise<{ data: AnyRecord[]; has_more: boolean }> {
  const params = { params: { query } };
  if (family === 'nfce') return orThrow(api.GET('/v1/nfce', params));
  if (family === 'nfe') return orThrow(api.GET('/v1/nfe', params));
  return orThrow(api.GET('/v1/nfse', params));
}

function fetchEvents(family: Family, id: string): Promise<{ data: NoteEvent[] }> {
  const params = { params: { path: { id } } };
  if (family === 'nfce') return orThrow(api.GET('/v1/nfce/{id}/events', params));
  if (family === 'nfe') return orThrow(api.GET('/v1/nfe/{id}/events', params));
  return orThrow(api.GET('/v1/nfse/{id}/events', params));
}

export const noteKey = (family: Family, id: string) => ['documents', family, id] as const;

/** How often a note on its way is asked again: the sandbox answers in about a second. */
const LIVE_MS = 1_000;

/** One note, asked again every second while it is on its way (processing, contingency, a cancellation or CC-e being sent). */
export function useNote(family: Family, id: string) {
  return useQuery({
    queryKey: noteKey(family, id),
    queryFn: () => fetchNote(family, id),
    refetchInterval: (q) => (q.state.data && isSettling(q.state.data) ? LIVE_MS : false),
  });
}

/** The note's history, asked again whenever the note changed (`version`: its updated_at). */
export function useNoteEvents(family: Family, id: string, version: string) {
  return useQuery({
    queryKey: [...noteKey(family, id), 'events', version],
    queryFn: () => fetchEvents(family, id),
    placeholderData: keepPreviousData,
  });
}

export function useNoteList(family: Family, query: ListQuery) {
  return useQuery({
    queryKey: ['documents', family, 'list', query],
    queryFn: () => fetchList(family, query),
    placeholderData: keepPreviousData,
  });
}

export function useIssuers() {
  return useQuery({
    queryKey: ['issuers', 'all'],
    queryFn: () => orThrow(api.GET('/v1/issuers', { params: { query: { limit: 100 } } })),
    staleTime: 60_000,
  });
}
