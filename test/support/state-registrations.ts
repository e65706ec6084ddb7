// One valid state registration (IE) per state: SINTEGRA's worked examples (docs/fiscal/state-registration.md),
// for fixtures whose issuer or recipient state varies (the simulator checks MOC C17-20 and E17-50).
export const VALID_IE: Readonly<Record<string, string>> = {
  AC: '0100482300112', AL: '240000048', AP: '030123459', AM: '999999990', BA: '100000306', CE: '060000015', DF: '0730000100109',
  ES: '999999990', GO: '109876547', MA: '120000385', MT: '00130000019', MS: '280405383', MG: '0623079040081', PA: '159999995',
  PB: '060000015', PR: '1234567850', PE: '032141840', PI: '012345679', RJ: '99999993', RN: '200400401', RS: '2243658792',
  RO: '00000000625213', RR: '240066281', SC: '251040852', SP: '110042490114', SE: '271234563', TO: '290227836',
};
