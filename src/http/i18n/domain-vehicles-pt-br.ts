// pt-BR sentences of src/documents/nfe/domain/vehicle.ts (items[].vehicle, prod/veicProd).
export const VEHICLES_PT_BR: Readonly<Record<string, string>> = {
  'cannot go with medicine or fuel on the same item: the layout gives an item one of the vehicle (veicProd), medicine (med) or fuel (comb) groups':
    'não pode ir com medicamento ou combustível no mesmo item: o leiaute dá ao item um só dos grupos de veículo (veicProd), medicamento (med) ou combustível (comb)',
  'cannot be 2 (direct billing): it needs the delivery place (entrega), which the gateway does not write yet (MOC C18-20, 478)':
    'não pode ser 2 (faturamento direto): ele exige o local de entrega (entrega), que o gateway ainda não escreve (MOC C18-20, 478)',
  'must be one of: 0, 1, 2, 3': 'deve ser um destes: 0, 1, 2, 3',
  'must be 17 upper-case letters and digits': 'deve ter 17 letras maiúsculas e dígitos',
  'must be 4 digits': 'deve ter 4 dígitos',
  'must be 1 to 2 digits': 'deve ter de 1 a 2 dígitos',
  'must be 1 digit': 'deve ter 1 dígito',
  'must be one of: N, R': 'deve ser um destes: N, R',
  'must be one of: 1, 2, 3': 'deve ser um destes: 1, 2, 3',
  'must be 1 to 6 digits': 'deve ter de 1 a 6 dígitos',
  'must be 1 to 3 digits': 'deve ter de 1 a 3 dígitos',
  'must be one of: 0, 1, 2, 3, 4, 9': 'deve ser um destes: 0, 1, 2, 3, 4, 9',
};
