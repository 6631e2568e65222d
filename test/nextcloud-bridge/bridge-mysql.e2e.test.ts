/** The bridge app inside a real Nextcloud 34.0.1 on MariaDB: see suite.ts. */
import { bridgeSuite } from './suite.js';

bridgeSuite('mysql', { release: '34.0.1' });
