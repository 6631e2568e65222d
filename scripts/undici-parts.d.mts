import type { Plugin } from 'esbuild';
/** The esbuild plugin that bundles undici's Client with its stand-ins (scripts/undici-parts.mjs). */
export const lazyUndiciParts: Plugin;
