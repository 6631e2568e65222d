/** Conformance with a real Nextcloud on PostgreSQL: see suite.ts. */
import { conformanceSuite } from './suite.js';

conformanceSuite('pgsql');
