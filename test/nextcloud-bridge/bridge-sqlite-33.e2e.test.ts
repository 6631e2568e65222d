/** The bridge app inside a real Nextcloud 33.0.1 on SQLite, the oldest major the app declares: see suite.ts. */
import { bridgeSuite } from './suite.js';

bridgeSuite('sqlite', { release: '33.0.1' });
