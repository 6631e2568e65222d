/**
 * Conformance with a real Nextcloud 33.0.1 on SQLite (see suite.ts): the second judge beside
 * 34.0.1 (three databases), the oldest major the product supports. Half the random sequences of a
 * 34.0.1 suite (6, not 12) keep the fourth real-Nextcloud suite inside .ci/run's 45 minutes on a
 * 2-core machine; DUS_CONFORMANCE_RUNS still sets the number for every suite.
 */
import { conformanceSuite } from './suite.js';

conformanceSuite('sqlite', { release: '33.0.1', randomRuns: 6 });
