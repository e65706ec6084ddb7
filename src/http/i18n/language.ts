/** The two languages the API speaks to people (issue 31 item 2); Accept-Language picks one (http/accept-language.ts). */
export type ApiLanguage = 'pt-BR' | 'en';
