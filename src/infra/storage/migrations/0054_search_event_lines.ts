import type { Migration } from '../migrate.js';

// Every note's history has three lines whose text the note's own search document already says or that
// say nothing one searches for: `created` ("NFC-e 12 series 1 signed"), `transmitted` ("sent to the
// authority (attempt 1)") and `authorized` (the authority's stock "Autorizado o uso" and the protocol, which the
// note's document carries in its identifiers). Indexed, they were three of the 4.6 search documents per
// note, each with its GIN entries (BENCHMARKS.md "Cost per note"), and a search for "signed" or "attempt"
// answered every note of the account. The lines that say something of their own (a rejection's reason, a
// doubt, a cancellation, a correction, a contingency step) stay indexed. The trigger's WHEN clause keeps the
// others from even calling the function. Documents of such lines written before stay (deleting millions of
// rows is not a migration's job); they still point at a note's timeline.
export const migration: Migration = {
  id: 54,
  name: "search: a note's created, transmitted and authorized history lines are not indexed (the note's document says them)",
  sql: `
DROP TRIGGER search_index_events ON note_history;
CREATE TRIGGER search_index_events AFTER INSERT ON note_history FOR EACH ROW WHEN (NEW.type NOT IN ('created', 'transmitted', 'authorized') AND (NEW.message IS NOT NULL OR NEW.protocolo IS NOT NULL)) EXECUTE FUNCTION search_index_event();
`,
};
