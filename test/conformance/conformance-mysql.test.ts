/** Conformance with a real Nextcloud on MariaDB: see suite.ts. */
import { conformanceSuite } from './suite.js';

conformanceSuite('mysql');
