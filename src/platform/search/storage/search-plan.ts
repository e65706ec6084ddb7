// The two shapes a search passes between its steps: what is asked (SearchPlan) and what PostgreSQL parsed of it (MatchTexts).

/** What one search asks of search_documents (migrations 0021, 0026), already made safe by the caller. */
export interface SearchPlan {
  accountId: string;
  /** The words, handed to websearch_to_tsquery: any text is valid there, none raises a syntax error. */
  text: string;
  /**
   * Identifier tokens, lowercase letters and digits only (the caller strips the rest): an exact
   * match ranks first; those of 4+ characters also match as a prefix.
   */
  idents: string[];
  kind?: string | undefined;
  issuerId?: string | undefined;
  status?: string | undefined;
  createdGte?: Date | undefined;
  createdLt?: Date | undefined;
  /** The gateway's time: the newest matches are looked for in the weeks around it (search-candidates). */
  now: Date;
}

/** What one search matches, as PostgreSQL parsed it (search-repository's parse step). */
export interface MatchTexts {
  /** tsquery text: q's words | the corrected names ('' when none). */
  words: string;
  /** tsquery text: q's own words (websearch_to_tsquery; '' when only stop words). */
  own: string;
  /** tsquery text of the identifiers ('#'-marked, identQuery; '' when none). */
  idents: string;
  /** q as the names are kept (search_names): lowercase, unaccented. */
  names: string;
}
