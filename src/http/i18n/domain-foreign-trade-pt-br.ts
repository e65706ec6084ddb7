// pt-BR sentences of src/documents/nfe/domain/validate-foreign-trade.ts (veicProd, DI/II, detExport).
export const FOREIGN_TRADE_PT_BR: Readonly<Record<string, string>> = {
  'is only given in an NF-e (model 55), never in an NFC-e (MOC J01-10, 736)': 'só é informado na NF-e (modelo 55), nunca na NFC-e (MOC J01-10, 736)',
  'is required with an import CFOP ({}) (MOC I08-110, 525)': 'é obrigatório com CFOP de importação ({}) (MOC I08-110, 525)',
  'is required with an import CFOP ({}) (MOC I08-130, 599)': 'é obrigatório com CFOP de importação ({}) (MOC I08-130, 599)',
  'is required with CFOP {} (MOC I29a-10, 334)': 'é obrigatório com o CFOP {} (MOC I29a-10, 334)',
  'is only given in an operation with a party abroad (idDest 3) (MOC I50-10, 336)': 'só é informado em operação com o exterior (idDest 3) (MOC I50-10, 336)',
  'must be up to 12 digits (MOC I53-10, 341)': 'deve ter até 12 dígitos (MOC I53-10, 341)',
  'is required with CFOP {} (MOC I51-10, 338)': 'é obrigatório com o CFOP {} (MOC I51-10, 338)',
  'is required by sea (transport_mode 1) (MOC I23b-10, 330)': 'é obrigatório no transporte marítimo (transport_mode 1) (MOC I23b-10, 330)',
  'give only one of buyer_cnpj or buyer_cpf': 'informe apenas um entre buyer_cnpj e buyer_cpf',
  'is not a valid CNPJ (check digits must match; MOC I23d-20, 332)': 'não é um CNPJ válido (os dígitos verificadores devem conferir; MOC I23d-20, 332)',
  'is required with intermediation {} (on behalf of or to the order of a buyer): give buyer_cnpj or buyer_cpf (MOC I23d-10, 331)':
    'é obrigatório com intermediation {} (importação por conta e ordem ou por encomenda): informe buyer_cnpj ou buyer_cpf (MOC I23d-10, 331)',
  'is required with intermediation {} (MOC I23e-10, 333)': 'é obrigatório com intermediation {} (MOC I23e-10, 333)',
  'must be between {} and {}: not in the future nor more than 5 years back (MOC I23-10, 376)': 'deve estar entre {} e {}: nem no futuro nem mais de 5 anos atrás (MOC I23-10, 376)',
};
