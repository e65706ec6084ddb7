/** One rule of the official tables the simulator plays: its id (MOC / NFS-e Anexo I), the code it answers and where the code does it (enforced-rules.ts lists them). */
export interface EnforcedRule {
  rule: string;
  code: number | string;
  where: string;
}
