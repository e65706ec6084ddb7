import { el, leaf, optLeaf } from '../xml-text.js';
import type { AddressModel, DestModel, EmitModel } from './model.js';

// emit and dest (with their address types TEnderEmi and TEndereco).

function addressXml(name: string, a: AddressModel): string {
  return el(
    name,
    leaf('xLgr', a.xLgr) +
      leaf('nro', a.nro) +
      optLeaf('xCpl', a.xCpl) +
      leaf('xBairro', a.xBairro) +
      leaf('cMun', a.cMun) +
      leaf('xMun', a.xMun) +
      leaf('UF', a.UF) +
      optLeaf('CEP', a.CEP) +
      leaf('cPais', a.cPais ?? '1058') +
      leaf('xPais', a.xPais ?? 'BRASIL') +
      optLeaf('fone', a.fone),
  );
}

export function emitXml(m: EmitModel): string {
  return el(
    'emit',
    leaf('CNPJ', m.CNPJ) + leaf('xNome', m.xNome) + optLeaf('xFant', m.xFant) + addressXml('enderEmit', m.ender) + leaf('IE', m.IE) + leaf('CRT', m.CRT),
  );
}

export function destXml(m: DestModel): string {
  return el(
    'dest',
    (m.CNPJ ? leaf('CNPJ', m.CNPJ) : m.idEstrangeiro !== undefined ? leaf('idEstrangeiro', m.idEstrangeiro) : leaf('CPF', m.CPF ?? '')) +
      optLeaf('xNome', m.xNome) +
      (m.ender ? addressXml('enderDest', m.ender) : '') +
      // NFC-e recipient is a non-contributor: indIEDest 9 and no IE (729); model 55 sets both.
      leaf('indIEDest', m.indIEDest ?? 9) +
      optLeaf('IE', m.IE) +
      optLeaf('email', m.email),
  );
}
