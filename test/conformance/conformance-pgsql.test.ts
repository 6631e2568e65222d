/** Conformance with a real Nextcloud 34.0.1 on PostgreSQL: see suite.ts. */
import { conformanceSuite } from './suite.js';

conformanceSuite('pgsql', { release: '34.0.1', ldap: true });
