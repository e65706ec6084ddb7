// The notifications screen.
export const notifications = {
  title: 'Notificações',
  unread: 'Não lida',
  read: 'Lida',
  markRead: 'Marcar como lida',
  markReadOf: (title: string) => `Marcar como lida: ${title}`,
  live: 'Novas notificações aparecem aqui sozinhas.',
  empty: 'Nenhuma notificação.',
  unreadCount: (n: number) => (n === 1 ? '1 notificação não lida' : `${n} notificações não lidas`),
};
