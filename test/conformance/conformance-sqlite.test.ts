/** Conformance with a real Nextcloud 34.0.1 on SQLite (see suite.ts), and the harness's own checks on the same install. */
import { harnessChecks } from './harness-checks.js';
import { conformanceSuite } from './suite.js';

conformanceSuite('sqlite', { release: '34.0.1', ldap: true, extra: (context) => harnessChecks(() => context().nc) });
