/**
 * A SQLite host for the `who` bench: the archive account's FILES marked files in FOLDERS
 * folders under `files/Archive` (document j is `F<j mod FOLDERS + 1>/Invoice j [P j].pdf`),
 * ACCOUNTS accounts u1…uN, all members of the group `everyone`, which receives the folder
 * `Team` holding document 0's stand-in `Policy [P<FILES + 1>].pdf`; each account a user share
 * of one folder (`F<i mod FOLDERS + 1>`), and groups g0… of 100 members a folder each.
 */
import { createHostFixture, type HostFixture } from '../../test/support/host-fixtures/index.js';
import { md5 } from './big-host.js';

export interface WhoHostShape {
  readonly accounts: number;
  readonly files: number;
  readonly folders: number;
  /** A user share of one folder per account, and 100-member groups with a folder each. */
  readonly spread: boolean;
}

export interface WhoHost {
  readonly fx: HostFixture;
  /** The document in `Team`, shared with the `everyone` group of every account. */
  readonly teamDocument: number;
  /** A document in F1, shared with u1 (and, with `spread`, the accounts whose folder is F1). */
  readonly folderDocument: number;
}

const series = (to: number, from = 1): string => `(WITH RECURSIVE c(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM c WHERE i < ${to}) SELECT i FROM c)`;

export async function buildWhoHost(shape: WhoHostShape): Promise<WhoHost> {
  const fx = await createHostFixture('sqlite');
  const t = (x: string): string => `${fx.prefix}${x}`;
  const { accounts, files, folders } = shape;
  await fx.exec('PRAGMA cache_size = -1048576; PRAGMA synchronous = OFF');
  await fx.exec(`INSERT INTO ${t('mimetypes')} (id, mimetype) VALUES (1, 'httpd/unix-directory'), (2, 'httpd'), (3, 'application/pdf'), (4, 'application')`);
  await fx.exec(`INSERT INTO ${t('storages')} (numeric_id, id, available) VALUES (1, 'home::archive', 1)`);
  await fx.setAppConfig('docs_sync', 'target_user', 'archive');
  await fx.exec(`INSERT INTO ${t('users')} (uid, uid_lower, password) VALUES ('archive', 'archive', '')`);
  await fx.exec(`INSERT INTO ${t('users')} (uid, uid_lower, password) SELECT 'u' || i, 'u' || i, '' FROM ${series(accounts)}`);
  await fx.exec(`INSERT INTO ${t('groups')} (gid, displayname) VALUES ('everyone', 'everyone')`);
  await fx.exec(`INSERT INTO ${t('group_user')} (gid, uid) SELECT 'everyone', 'u' || i FROM ${series(accounts)}`);
  const cols = '(fileid, storage, path, path_hash, parent, name, mimetype, mimepart, size, mtime, storage_mtime, permissions, etag)';
  const folder = (id: number, path: string, parent: number, name: string): string =>
    `(${id}, 1, '${path}', '${path}-h', ${parent}, '${name}', 1, 2, 0, 1700000000, 1700000000, 31, 'e${id}')`;
  await fx.exec(
    `INSERT INTO ${t('filecache')} ${cols} VALUES ${[folder(1, '', -1, ''), folder(2, 'files', 1, 'files'), folder(3, 'files/Archive', 2, 'Archive'), folder(4, 'files/Team', 2, 'Team')].join(', ')}`,
  );
  // The marker index finds the archive's `files` folder by its real path hash, as on a host.
  await fx.exec(`UPDATE ${t('filecache')} SET path_hash = ? WHERE fileid = 2`, [md5('files')]);
  // Folders F1…: file ids 10 + k; files: file id 10 + folders + j.
  await fx.exec(
    `INSERT INTO ${t('filecache')} ${cols} SELECT 10 + i, 1, 'files/Archive/F' || i, 'fh' || i, 3, 'F' || i, 1, 2, 0, 1700000000, 1700000000, 31, 'e' || i FROM ${series(folders)}`,
  );
  for (let from = 1; from <= files; from += 500_000) {
    const to = Math.min(files, from + 499_999);
    await fx.exec(
      `INSERT INTO ${t('filecache')} ${cols} SELECT 10 + ${folders} + i, 1, 'files/Archive/F' || (i % ${folders} + 1) || '/Invoice ' || i || ' [P' || i || '].pdf', 'ph' || i,` +
        ` 10 + (i % ${folders} + 1), 'Invoice ' || i || ' [P' || i || '].pdf', 3, 4, 1000, 1700000000, 1700000000, 27, 'e' || i FROM ${series(to, from)}`,
    );
  }
  const teamDocument = files + 1;
  await fx.exec(
    `INSERT INTO ${t('filecache')} ${cols} VALUES (${20 + folders + files}, 1, 'files/Team/Policy [P${teamDocument}].pdf', 'team', 4, 'Policy [P${teamDocument}].pdf', 3, 4, 1000, 1700000000, 1700000000, 27, 'team')`,
  );
  const shareCols = '(share_type, share_with, uid_owner, uid_initiator, item_type, item_source, file_source, file_target, permissions, stime, accepted)';
  await fx.exec(`INSERT INTO ${t('share')} ${shareCols} VALUES (1, 'everyone', 'archive', 'archive', 'folder', '4', 4, '/Team', 1, 1700000000, 1)`);
  await fx.exec(`INSERT INTO ${t('share')} ${shareCols} VALUES (0, 'u1', 'archive', 'archive', 'folder', '11', 11, '/F1', 1, 1700000000, 1)`);
  if (shape.spread) {
    await fx.exec(
      `INSERT INTO ${t('share')} ${shareCols} SELECT 0, 'u' || i, 'archive', 'archive', 'folder', CAST(10 + (i % ${folders}) + 1 AS TEXT), 10 + (i % ${folders}) + 1,` +
        ` '/Mine', 1, 1700000000 + i, 1 FROM ${series(accounts, 2)}`,
    );
    const groups = Math.floor(accounts / 100);
    await fx.exec(`INSERT INTO ${t('groups')} (gid, displayname) SELECT 'g' || i, 'g' || i FROM ${series(groups - 1, 0)}`);
    await fx.exec(`INSERT INTO ${t('group_user')} (gid, uid) SELECT 'g' || ((i - 1) / 100), 'u' || i FROM ${series(groups * 100)}`);
    await fx.exec(
      `INSERT INTO ${t('share')} ${shareCols} SELECT 1, 'g' || i, 'archive', 'archive', 'folder', CAST(10 + ${Math.floor(folders / 2)} + i AS TEXT), 10 + ${Math.floor(folders / 2)} + i,` +
        ` '/Group', 1, 1700000000, 1 FROM ${series(groups - 1, 0)}`,
    );
  }
  await fx.exec('ANALYZE');
  return { fx, teamDocument, folderDocument: folders };
}
