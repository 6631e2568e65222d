/** How many documents of the archive server's result a verdict report decides for (a module of its own: `--help` reads it). */
export const VERDICT_LIMIT_DEFAULT = 10;
export const VERDICT_LIMIT_MAX = 50;
