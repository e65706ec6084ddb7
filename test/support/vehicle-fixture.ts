import type { Vehicle } from '../../src/documents/nfe/domain/vehicle.js';

/** A new car a dealer sells (tpOp 1): every veicProd field, valid by the XSD. */
export const VEHICLE: Vehicle = {
  operation_type: '1', chassis: '9BWZZZ377VT004251', color_code: '0040', color_description: 'BRANCO CRISTAL', power: '116', displacement: '999',
  net_weight: '1025', gross_weight: '1480', serial_number: 'AB1234', fuel_type: '16', engine_number: 'CSS123456', max_traction: '1.4800',
  wheelbase: '2566', model_year: '2027', manufacture_year: '2026', paint_type: 'M', vehicle_type: '06', vehicle_species: '1', vin_condition: 'N',
  condition: '1', model_code: '110435', denatran_color: '04', seating_capacity: '5', restriction: '0',
};

/** The same vehicle as the gateway writes it (prod/veicProd in the XSD's order), with tpOp as given. */
export const veicProdXml = (tpOp = '1') =>
  `<veicProd><tpOp>${tpOp}</tpOp><chassi>9BWZZZ377VT004251</chassi><cCor>0040</cCor><xCor>BRANCO CRISTAL</xCor><pot>116</pot><cilin>999</cilin>` +
  '<pesoL>1025</pesoL><pesoB>1480</pesoB><nSerie>AB1234</nSerie><tpComb>16</tpComb><nMotor>CSS123456</nMotor><CMT>1.4800</CMT><dist>2566</dist>' +
  '<anoMod>2027</anoMod><anoFab>2026</anoFab><tpPint>M</tpPint><tpVeic>06</tpVeic><espVeic>1</espVeic><VIN>N</VIN><condVeic>1</condVeic>' +
  '<cMod>110435</cMod><cCorDENATRAN>04</cCorDENATRAN><lota>5</lota><tpRest>0</tpRest></veicProd>';
