import { municipioByCode } from '../../../fiscal/catalog/municipio-catalog.js';
import type { Issuer, RespTec } from '../../goods/domain/issuer-context.js';
import type { IssuerForEmission, RegisteredIssuer } from '../../../kernel/issuer.js';
import { CRT_BY_REGIME } from '../../../platform/issuers/issuer-validation.js';

/** The stored issuer as the document engine wants it (address already checked by issuer readiness). */
export function engineIssuer(row: RegisteredIssuer): Issuer {
  const e = row.endereco!;
  const issuer: Issuer = {
    cnpj: row.cnpj,
    ie: row.ie,
    razao_social: row.razao_social,
    uf: row.uf,
    crt: CRT_BY_REGIME[row.regime_tributario],
    endereco: {
      logradouro: e.logradouro,
      numero: e.numero,
      bairro: e.bairro,
      codigo_municipio: e.codigo_municipio,
      municipio: municipioByCode(e.codigo_municipio)?.name ?? e.codigo_municipio,
      cep: e.cep,
      ...(e.complemento ? { complemento: e.complemento } : {}),
      ...(e.telefone ? { telefone: e.telefone } : {}),
    },
  };
  if (row.nome_fantasia) issuer.nome_fantasia = row.nome_fantasia;
  return issuer;
}

/** tpAmb of the issuer: 1 production, 2 homologation (the sandbox keeps the issuer's choice). */
export function tpAmbOf(row: RegisteredIssuer): 1 | 2 {
  return row.ambiente === 'producao' ? 1 : 2;
}

/**
 * The technical responsible the issuer's notes carry (infRespTec: its own, else the account's), without
 * the CSRT: that one is opened with the signing material and hashed per number (build).
 */
export function engineRespTec(row: IssuerForEmission): RespTec | undefined {
  const r = row.resp_tec;
  return r ? { cnpj: r.cnpj, contato: r.contact, email: r.email, fone: r.phone } : undefined;
}
