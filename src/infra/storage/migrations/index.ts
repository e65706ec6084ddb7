import type { MigrationSet } from '../migrate.js';
import { migration as m0001 } from './0001_core.js';
import { migration as m0002 } from './0002_issuers.js';
import { migration as m0003 } from './0003_jobs_outbox.js';
import { migration as m0004 } from './0004_nfce.js';
import { migration as m0005 } from './0005_events_delivery.js';
import { migration as m0006 } from './0006_lz4_documents.js';
import { migration as m0007 } from './0007_fanout_condition.js';
import { migration as m0008 } from './0008_numbering_guard.js';
import { migration as m0009 } from './0009_notification_account_seq.js';
import { migration as m0010 } from './0010_people.js';
import { migration as m0011 } from './0011_passkey_challenges.js';
import { migration as m0012 } from './0012_sso_states.js';
import { migration as m0013 } from './0013_team.js';
import { migration as m0014 } from './0014_nfe.js';
import { migration as m0015 } from './0015_notes_rename.js';
import { migration as m0016 } from './0016_issuer_nfse.js';
import { migration as m0017 } from './0017_nfse_notes.js';
import { migration as m0018 } from './0018_contingency.js';
import { migration as m0019 } from './0019_authority_breakers.js';
import { migration as m0021 } from './0021_search.js';
import { migration as m0022 } from './0022_billing.js';
import { migration as m0023 } from './0023_search_kinds_trial.js';
import { migration as m0024 } from './0024_overview_index.js';
import { migration as m0025 } from './0025_search_manifestations.js';
import { migration as m0026 } from './0026_search_weeks.js';
import { migration as m0027 } from './0027_factor_suspension.js';
import { migration as m0028 } from './0028_device_cookies.js';
import { migration as m0029 } from './0029_rights.js';
import { migration as m0031 } from './0031_notes_key_per_account.js';
import { migration as m0032 } from './0032_issuer_archive.js';
import { migration as m0034 } from './0034_technical_responsible.js';
import { migration as m0040 } from './0040_external_ref_unique.js';
import { migration as m0041 } from './0041_series.js';
import { migration as m0043 } from './0043_buyer_mail.js';
import { migration as m0046 } from './0046_exports.js';
import { migration as m0047 } from './0047_export_expiry.js';
import { migration as m0050 } from './0050_queue_enqueue.js';
import { migration as m0051 } from './0051_search_functions_plpgsql.js';
import { migration as m0052 } from './0052_idempotency_fillfactor.js';
import { migration as m0053 } from './0053_fanout_condition_plpgsql.js';
import { migration as m0054 } from './0054_search_event_lines.js';
import { migration as m0055 } from './0055_nfe_epec.js';

/** The gateway's migrations, in order. Each file exports one `migration`; add new ones here. */
export const gatewayMigrations: MigrationSet = {
  table: 'schema_migrations',
  migrations: [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0012, m0013, m0014, m0015, m0016, m0017, m0018, m0019, m0021, m0022, m0023, m0024, m0025, m0026, m0027, m0028, m0029, m0031, m0032, m0034, m0040, m0041, m0043, m0046, m0047, m0050, m0051, m0052, m0053, m0054, m0055],
};
