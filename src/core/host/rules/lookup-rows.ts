/**
 * The rows of one lookup statement (lookup-sql.ts) sorted by kind: what the visibility rules
 * judge (shares, nodes, files, switches, sharers' flags) and what the caller reads besides
 * (etags, the viewer's flags and language, the sync add-on's account). It changes when the
 * statement's row kinds do.
 */
import type { SqlRow } from '../db/types.js';
import { rootEtagsOf, rowNumber as num, rowText as text, type RootEtag } from './lookup-sql.js';
import { addExternalRow, externalRows, type ExternalRows } from './external-storage.js';
import { isEnabledAccount, type LookupRows, type NodeRow, type ShareRow } from './visibility.js';

/** What the search's question 1 reads besides the files (searchArchiveFiles). */
export interface SearchProbe {
  language: string | null;
  named: string | null;
}

/** The sync add-on's account from its stored value; an encrypted value (reference §8) is not readable here. */
export function syncAccountOf(stored: string | null): string | null {
  const value = stored?.trim() ?? '';
  if (value === '' || value.startsWith('$AppConfigEncryption$')) return null;
  return value;
}

export function splitRows(
  rows: readonly SqlRow[],
  recipient: string,
): LookupRows & {
  external: ExternalRows;
  unsupportedShares: number;
  rootEtags: RootEtag[];
  viewerEnabled: boolean;
  viewerLanguage: string | null;
  syncAccount: string | null;
  accessControl: string | null;
} {
  const shares: ShareRow[] = [];
  const roots = new Map<number, NodeRow>();
  const files: NodeRow[] = [];
  const sharing = sharingFacts();
  let unsupportedShares = 0;
  let syncAccount: string | null = null;
  let accessControl: string | null = null;
  const viewer = new Map<string, string | null>();
  const node = nodeRowOf;
  const external = externalRows();
  for (const row of rows) {
    if (addSharingRow(row, sharing)) continue;
    if (addExternalRow(row, external)) continue;
    switch (text(row.k)) {
      case 'S':
        shares.push(shareRowOf(row, recipient));
        break;
      case 'R': {
        const root = node(row);
        roots.set(root.fileId, root);
        break;
      }
      case 'F':
        files.push(node(row));
        break;
      case 'X':
        unsupportedShares += num(row.a);
        break;
      case 'U':
        viewer.set(text(row.t3) ?? '', text(row.t2));
        break;
      case 'A':
        syncAccount = text(row.t1);
        break;
      case 'W':
        accessControl = text(row.t1);
        break;
      default:
        break;
    }
  }
  const viewerEnabled = isEnabledAccount(viewer.get('enabled') ?? null, viewer.get('isDeleted') ?? null);
  return {
    shares,
    roots,
    files,
    ...sharing,
    external,
    unsupportedShares,
    rootEtags: rootEtagsOf(rows),
    viewerEnabled,
    viewerLanguage: viewer.get('lang') ?? null,
    syncAccount,
    accessControl,
  };
}

/** The files_sharing switches and the sharers' flags, as the rules read them (share-rules.ts `ShareFacts`). */
export interface SharingFacts {
  readonly sharingConfig: Map<string, string>;
  readonly disabledUsers: Set<string>;
  readonly goneUsers: Set<string>;
}

export function sharingFacts(): SharingFacts {
  return { sharingConfig: new Map(), disabledUsers: new Set(), goneUsers: new Set() };
}

/**
 * A `C` row (a switch: key in t1, value in t2) or a `D` row (a sharer's flag: user in t1, value
 * in t2, key in t3), in the columns every statement of the rules gives them (share-sql.ts),
 * added to `facts`; false for a row of another kind.
 */
export function addSharingRow(row: SqlRow, facts: SharingFacts): boolean {
  const kind = text(row.k);
  if (kind === 'C') {
    facts.sharingConfig.set(text(row.t1) ?? '', text(row.t2) ?? '');
    return true;
  }
  if (kind !== 'D') return false;
  if (text(row.t3) === 'isDeleted') {
    if (!isEnabledAccount(null, text(row.t2))) facts.goneUsers.add(text(row.t1) ?? '');
  } else if (!isEnabledAccount(text(row.t2), null)) {
    facts.disabledUsers.add(text(row.t1) ?? '');
  }
  return true;
}

/** An `S` row: a share to the recipient or one of its groups, its override row applied. */
export function shareRowOf(row: SqlRow, recipient: string): ShareRow {
  return {
    id: num(row.a),
    shareType: num(row.b),
    // The statement keeps only shares to the recipient or its groups; a group's id is read
    // only where a statement gives it (`gid`: who names the group), no rule needs it.
    shareWith: num(row.b) === 0 ? recipient : (text(row.gid) ?? ''),
    fileSource: num(row.c),
    stime: num(row.d),
    permissions: num(row.e),
    accepted: num(row.g),
    owner: text(row.t1) ?? '',
    initiator: text(row.t2),
    target: text(row.t3) ?? '',
    expired: text(row.t4) === 'expired',
    expiration: null,
  };
}

/** Whether the `U` rows (the viewer's `core`/`enabled` and `user_ldap`/`isDeleted`) let the account log in. */
export function viewerEnabledOf(rows: readonly SqlRow[]): boolean {
  let enabled: string | null = null;
  let deleted: string | null = null;
  for (const row of rows) {
    if (text(row.k) !== 'U') continue;
    if (text(row.t3) === 'enabled') enabled = text(row.t2);
    else if (text(row.t3) === 'isDeleted') deleted = text(row.t2);
  }
  return isEnabledAccount(enabled, deleted);
}

/** A node row (`R`, `F`): file id, storage, permissions, path, name, mimetype, storage id, in the columns every statement of the rules gives them. */
export function nodeRowOf(row: SqlRow): NodeRow {
  return {
    fileId: num(row.a),
    storage: num(row.b),
    permissions: num(row.c),
    path: text(row.t1),
    name: text(row.t2) ?? '',
    mimetype: text(row.t3) ?? '',
    storageId: text(row.t4) ?? '',
  };
}
