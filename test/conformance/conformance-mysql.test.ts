/** Conformance with a real Nextcloud 34.0.1 on MariaDB: see suite.ts. */
import { conformanceSuite } from './suite.js';

conformanceSuite('mysql', { release: '34.0.1' });
