/** The Nextcloud release a version-dependent rule reads: config.php `version` (`34.0.1.2`), null when unknown (`--host-db`). */
export interface Release {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

export function releaseOf(hostVersion: string | null): Release | null {
  const parts = /^(\d+)\.(\d+)\.(\d+)/.exec(hostVersion ?? '');
  return parts === null ? null : { major: Number(parts[1]), minor: Number(parts[2]), patch: Number(parts[3]) };
}
