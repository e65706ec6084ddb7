import type { Translations } from './template-catalog.js';

// A document sent as XML (the offline NFC-e intake) refused before it is read: the strict reading's
// sentences (fiscal/xml/strict-document.ts), each following the field name ("xml " + sentence).
export const STRICT_XML_PT_BR: Translations = {
  'has {} bytes, more than the {} a document may have': 'tem {} bytes, mais que os {} que um documento pode ter',
  'has a DOCTYPE; a fiscal document has none (entities and external references are refused)':
    'tem um DOCTYPE; um documento fiscal não tem DOCTYPE (entidades e referências externas são recusadas)',
  'is not well-formed XML: {}': 'não é um XML bem-formado: {}',
  'has more than one element at the top; only the one {} element may be sent': 'tem mais de um elemento no topo; só o elemento {} pode ser enviado',
  'is not one {} element in the namespace {}': 'não é um elemento {} no namespace {}',
  'has {} outside the root element; only the element itself (and an XML declaration) may be sent':
    'tem {} fora do elemento raiz; só o próprio elemento (e uma declaração XML) pode ser enviado',
  'has more than {} elements': 'tem mais de {} elementos',
  'nests elements more than {} deep': 'aninha elementos em mais de {} níveis',
  'has a CDATA section inside {}; CDATA is accepted only in {}': 'tem uma seção CDATA dentro de {}; CDATA só é aceito em {}',
  'has {} inside {}; a fiscal document holds neither comments nor processing instructions':
    'tem {} dentro de {}; um documento fiscal não tem comentários nem instruções de processamento',
};

// The values inside those sentences: what was found, where, and the XML parser's (@xmldom/xmldom)
// own reason, which is English in the library. Positions, names and quoted text stay as they are.
export const XML_PARSER_PT_BR: Translations = {
  'the document': 'o documento',
  'no element': 'nenhum elemento',
  'a comment (<!-- -->)': 'um comentário (<!-- -->)',
  'a processing instruction (<?{} ?>)': 'uma instrução de processamento (<?{} ?>)',
  'a DOCTYPE': 'um DOCTYPE',
  'a CDATA section': 'uma seção CDATA',
  'a node of type {}': 'um nó do tipo {}',
  'missing root element': 'falta o elemento raiz',
  'unclosed xml tag(s): {}': 'tag(s) não fechada(s): {}',
  'Extra content at the end of the document': 'há conteúdo depois do fim do documento',
  "Unexpected content outside root element: '{}'": "conteúdo inesperado fora do elemento raiz: '{}'",
  'end tag name missing': 'falta o nome na tag de fechamento',
  'end tag name contains invalid characters: "{}"': 'o nome da tag de fechamento tem caracteres inválidos: "{}"',
  'end tag name is followed by a line break and trailing content: "{}"': 'o nome da tag de fechamento é seguido de quebra de linha e mais conteúdo: "{}"',
  'Opening and ending tag mismatch: "{}" != "{}"': 'a tag de abertura e a de fechamento não correspondem: "{}" != "{}"',
  'element parse error: Error: unexpected < in tag name: {}': 'erro ao ler um elemento: "<" inesperado no nome da tag: {}',
  'element parse error: Error: attribute equal must after attrName': 'erro ao ler um elemento: o "=" deve vir depois do nome do atributo',
  "element parse error: Error: attribute value no end '{}' match": "erro ao ler um elemento: o valor do atributo não termina com '{}'",
  'element parse error: Error: attribute value must after "="': 'erro ao ler um elemento: o valor do atributo deve vir depois do "="',
  "element parse error: Error: attribute invalid close char('/')": "erro ao ler um elemento: caractere de fechamento inválido no atributo ('/')",
  "element parse error: Error: elements closed character '/' and '>' must be connected to": "erro ao ler um elemento: os caracteres '/' e '>' de fechamento devem estar juntos",
  'element parse error: Error: invalid tagName:{}': 'erro ao ler um elemento: nome de tag inválido: {}',
  'element parse error: Error: invalid attribute:{}': 'erro ao ler um elemento: atributo inválido: {}',
  'element parse error: {}': 'erro ao ler um elemento: {}',
  'Attribute {} redefined': 'atributo {} repetido',
  "Unescaped '<' not allowed in attributes values": "'<' sem escape não é permitido no valor de um atributo",
  'unexpected end of input': 'o texto termina antes do fim do documento',
  'AttValue: \' or " expected': 'valor de atributo: esperava \' ou "',
  'entity not found:{}': 'entidade não encontrada: {}',
  'entity not matching Reference production: {}': 'referência de entidade malformada: {}',
  'comment is not well-formed at position {}': 'comentário malformado na posição {}',
  'processing instruction is not well-formed at position {}': 'instrução de processamento malformada na posição {}',
  'CDATA outside of element': 'CDATA fora de um elemento',
  'Invalid CDATA starting at position {}': 'CDATA inválido a partir da posição {}',
};
