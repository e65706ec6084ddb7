import { ptBR } from './pt-BR/index.js';

export type Strings = typeof ptBR;

/** The dashboard's words. pt-BR today; switching language is choosing another `Strings` here. */
export const t: Strings = ptBR;
export const LOCALE = 'pt-BR';
