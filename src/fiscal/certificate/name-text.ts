// Text of a certificate's names (subject, issuer). Node's X509Certificate decodes UTF8String and
// BMPString correctly; what it cannot know is that some issuers' software encoded a name to UTF-8
// twice (the sped-nfe e-CNPJ test file holds "SÃ£o Paulo": C3 83 C2 A3 where "ã" is C3 A3), and
// users were shown that mojibake in API answers and expiry e-mails.
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Undoes one level of double UTF-8 encoding: a value whose characters are all Latin-1, whose bytes
 * read as Latin-1 are valid UTF-8 with at least one multi-byte sequence, is that UTF-8 text. A
 * correctly decoded Latin-1 name ("José": E9 alone) is not valid UTF-8 and stays as it is.
 */
export function repairDoubleUtf8(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || [...value].some((ch) => ch.charCodeAt(0) > 0xff)) return value;
  try {
    return fatalUtf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
