/** The archive server's page of hits (the spec's limit), here so that `why` reads it without the search pipeline's modules. */
export const ARCHIVE_PAGE_SIZE = 25;

/** How many documents of the archive server's result a verdict report decides for (a module of its own: `--help` reads it). */
export const VERDICT_LIMIT_DEFAULT = 10;
export const VERDICT_LIMIT_MAX = 50;
