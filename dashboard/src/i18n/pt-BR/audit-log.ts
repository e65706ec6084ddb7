// The audit log screen.
export const auditLog = {
  title: 'Auditoria',
  filters: 'Filtros',
  actor: 'Autor',
  actorHint: 'ID da aplicação ou do usuário',
  action: 'Ação',
  actionHint: 'Exata ou prefixo (ex.: team)',
  target: 'Alvo',
  from: 'De',
  to: 'Até',
  apply: 'Filtrar',
  clear: 'Limpar filtros',
  time: 'Quando',
  ip: 'IP',
  result: 'Resultado',
  route: 'Rota',
  empty: 'Nenhum registro para estes filtros.',
};
