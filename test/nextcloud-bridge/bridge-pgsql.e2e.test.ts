/** The bridge app inside a real Nextcloud 34.0.1 on PostgreSQL: see suite.ts. */
import { bridgeSuite } from './suite.js';

bridgeSuite('pgsql', { release: '34.0.1' });
