import type { Migration } from '../migrate.js';

// Emission takes its numbers optimistically (emission-batches.ts): the gateway builds and signs the
// notes for the numbers it expects, then one statement checks that the series is where it expected
// and stores them. When it is not, this raises, the whole statement is undone (no note, no number
// taken) and the gateway builds again from the series' real state.
export const migration: Migration = {
  id: 8,
  name: 'emission: guards of the optimistic emission statement (series and issuer unchanged)',
  sql: `
CREATE FUNCTION numbering_holds(ok boolean) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$ BEGIN IF ok IS NOT TRUE THEN RAISE EXCEPTION 'the series moved since its state was read' USING ERRCODE = 'FGN01'; END IF; RETURN true; END $$;
CREATE FUNCTION issuer_holds(ok boolean) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$ BEGIN IF ok IS NOT TRUE THEN RAISE EXCEPTION 'the issuer changed since it was read' USING ERRCODE = 'FGI01'; END IF; RETURN true; END $$;
`,
};
