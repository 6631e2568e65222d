import type { CommandSpec } from '../cli/types.js';
import { command as setup } from './setup.js';
import { command as test } from './test.js';
import { command as search } from './search.js';
import { command as why } from './why.js';
import { command as check } from './check.js';
import { command as configAppGet } from './config-app-get.js';
import { command as configAppSet } from './config-app-set.js';
import { command as configAppDelete } from './config-app-delete.js';
import { command as setupchecks } from './setupchecks.js';
import { command as maintenanceRepair } from './maintenance-repair.js';
import { command as serve } from './serve.js';
import { command as bridgeSecret } from './bridge-secret.js';
import { command as completion } from './completion.js';

/** Every command of the suite, in the order `--help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  setup,
  test,
  search,
  why,
  check,
  configAppGet,
  configAppSet,
  configAppDelete,
  setupchecks,
  maintenanceRepair,
  serve,
  bridgeSecret,
  completion,
];
