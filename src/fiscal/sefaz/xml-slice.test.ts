// The slicer cuts exact bytes out of XML; comments, CDATA sections and processing instructions hide
// no element from a real parser, so they must hide none from the slicer either (
// `<!-- NFe 2003 -->` before the signed NFe 2002 was read as 2003).
import { describe, expect, it } from 'vitest';
import { attributeOf, sliceAll, sliceElement, textOf } from './xml-slice.js';

describe('xml-slice reads only real elements', () => {
  it('skips elements written inside comments, CDATA sections and processing instructions', () => {
    const xml = '<?xml version="1.0"?><!-- <protNFe><nProt>999</nProt></protNFe> --><r><?pi <protNFe><nProt>998</nProt></protNFe>?>' +
      '<obs><![CDATA[<protNFe><nProt>997</nProt></protNFe>]]></obs><protNFe versao="4.00"><nProt>135</nProt></protNFe></r>';
    const prot = sliceElement(xml, 'protNFe')!;
    expect(prot.outer).toBe('<protNFe versao="4.00"><nProt>135</nProt></protNFe>');
    expect(attributeOf(prot, 'versao')).toBe('4.00');
    expect(textOf(xml, 'nProt')).toBe('135');
    expect(sliceAll(xml, 'nProt').map((s) => s.inner)).toEqual(['135']);
  });

  it('skips a DOCTYPE and the entity values it declares', () => {
    expect(textOf('<!DOCTYPE r [<!ENTITY e "<nNF>2003</nNF>">]><r><nNF>2002</nNF></r>', 'nNF')).toBe('2002');
  });

  it('an unterminated comment hides everything after it', () => {
    expect(sliceElement('<r><!-- <a>1</a></r>', 'a')).toBeNull();
  });

  it('keeps the bytes as sent, comments inside the element included', () => {
    const xml = '<r><a x="1"><!-- note --><b>2</b></a></r>';
    expect(sliceElement(xml, 'a')!.inner).toBe('<!-- note --><b>2</b>');
    expect(textOf(xml, 'b')).toBe('2');
  });
});
