import { sliceAll } from '../../src/fiscal/sefaz/xml-slice.js';
import { last, nfe, NFCE, NFE, type GoodsBreaker } from './goods-breakers.js';
import { VEHICLE, veicProdXml } from './vehicle-fixture.js';

// Breakers of the rules in authority-sim/enforced-vehicles.ts (see rule-breakers.ts for the three kinds);
// docs/fiscal/vehicles-and-foreign-trade.md.

/** The first det whose prod ends with no group of the closing choice gets veicProd at its end. */
function withVeicProd(xml: string, tpOp: string): string {
  const det = sliceAll(xml, 'det').find((d) => !/<(comb|med)>/.test(d.outer));
  if (!det) throw new Error('every det carries comb or med');
  return xml.slice(0, det.start) + det.outer.replace('</prod>', `${veicProdXml(tpOp)}</prod>`) + xml.slice(det.start + det.outer.length);
}

const plainItem = (xml: string) => sliceAll(xml, 'det').some((d) => !/<(comb|med)>/.test(d.outer));

export const VEHICLES_BREAKERS: readonly GoodsBreaker[] = [
  {
    kind: 'document', rule: 'J01-10', code: 736, models: NFCE, why: 'the NFC-e request has no vehicle field (items[].vehicle is refused there as an unknown field)',
    applies: (_c, d) => plainItem(d.xml), break: (d) => ({ xml: withVeicProd(d.xml, '1') }),
  },
  {
    // Direct billing (tpOp 2) on the last item, which carries neither fuel nor medicine; the gateway never writes entrega.
    kind: 'request', rule: 'C18-20', code: 478, models: NFE, applies: (c) => c.req.items[last(c)]!.fuel === undefined && c.req.items[last(c)]!.medicine === undefined,
    break: (c) => ((nfe(c).items[last(c)]!.vehicle = { ...VEHICLE, operation_type: '2' }), `items[${last(c)}].vehicle.operation_type`),
  },
];
