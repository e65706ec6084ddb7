import type { NotificationRow } from './storage/notification-repository.js';

export interface NotificationView {
  id: string;
  object: 'notification';
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  read: boolean;
  read_at: string | null;
  created_at: string;
  /** Orderable position: the server-sent-event id, for Last-Event-ID resume. */
  seq: number;
}

export function presentNotification(r: NotificationRow): NotificationView {
  return {
    id: r.id,
    object: 'notification',
    type: r.type,
    title: r.title,
    body: r.body,
    data: r.data,
    read: r.read_at !== null,
    read_at: r.read_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    seq: Number(r.seq),
  };
}
