import type { Migration } from '../migrate.js';

// Emission takes its numbers optimistically (emission-batches.ts): the gateway builds and signs the
// notes for the numbers it expects, then one statement checks that the series is where it expected
// and stores them. When it is not, this raises, the whole statement is undone (no note, no number
// taken) and the gateway builds again from the series' real state.
export const migration: Migration = {
  id: 8,
  name: 'numbering: guard for the optimistic emission statement',
  sql: `
CREATE FUNCTION numbering_holds(ok boolean) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$ BEGIN IF ok IS NOT TRUE THEN RAISE EXCEPTION 'the series moved since its state was read' USING ERRCODE = 'FGN01'; END IF; RETURN true; END $$;
`,
};
