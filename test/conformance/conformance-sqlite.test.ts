/** Conformance with a real Nextcloud on SQLite (see suite.ts), and the harness's own checks on the same install. */
import { harnessChecks } from './harness-checks.js';
import { conformanceSuite } from './suite.js';

conformanceSuite('sqlite', (context) => harnessChecks(() => context().nc));
