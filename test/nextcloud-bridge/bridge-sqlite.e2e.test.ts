/** The bridge app inside a real Nextcloud 34.0.1 on SQLite: see suite.ts. */
import { bridgeSuite } from './suite.js';

bridgeSuite('sqlite', { release: '34.0.1' });
