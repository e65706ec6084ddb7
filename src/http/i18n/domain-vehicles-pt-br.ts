// pt-BR sentences of src/documents/nfe/domain/vehicle.ts (items[].vehicle, prod/veicProd).
export const VEHICLES_PT_BR: Readonly<Record<string, string>> = {
  'cannot go with medicine or fuel on the same item: the layout gives an item one of the vehicle (veicProd), medicine (med) or fuel (comb) groups':
    'não pode ir com medicamento ou combustível no mesmo item: o leiaute dá ao item um só dos grupos de veículo (veicProd), medicamento (med) ou combustível (comb)',
  'cannot be 2 (direct billing): it needs the delivery place (entrega), which the gateway does not write yet (MOC C18-20, 478)':
    'não pode ser 2 (faturamento direto): ele exige o local de entrega (entrega), que o gateway ainda não escreve (MOC C18-20, 478)',
};
