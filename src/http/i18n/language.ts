/** The two languages the API speaks to people; Accept-Language picks one (http/accept-language.ts). */
export type ApiLanguage = 'pt-BR' | 'en';
