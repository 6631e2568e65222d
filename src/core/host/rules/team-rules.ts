/**
 * Teams (the circles app, shipped and enabled by default; share type 7) as Nextcloud reads them:
 * who is in a team, the share rows a member receives, and how `why` and `who` name the route.
 * The rules that let a team share through or block it are entries of SHARE_RULES
 * (share-rules.ts: `teams off`, `not in team`, `left`, and the collision order of
 * collision-order.ts); this module holds the facts they judge. docs/host-adapter.md, "Teams",
 * has the circles source each part follows, for 33.0.1 and 34.0.1 (the same code).
 *
 * Membership is read from `circles_membership`, the flattened table circles' own share
 * provider joins on (`CoreQueryBuilder::limitToFederatedUserMemberships`): one row per (team,
 * single id) for direct members, members through a group (a group in a team is a member of type
 * 16, its own hidden team kept in step with the group by `SyncService`) and members of nested
 * teams, at level 1 or more only, so an invitation not yet accepted (level 0) is no membership.
 * circles rewrites it in the request that changes a membership, a group or a team
 * (`MembershipService::onUpdate`); nothing of it waits for a background job.
 */
import { msg, type Message } from '../../i18n/catalog.js';

/** A member row that is a local user's own single circle (its `single_id` is the user's). */
export const LOCAL_USER_SINGLE = (m: string): string => `${m}.user_type = 1 AND ${m}.instance = '' AND ${m}.circle_id = ${m}.single_id`;

/**
 * The teams the user (two `?`: the user, twice) is in, as the circles app's share provider asks
 * (`ShareWrapperRequest::getSharedWith`): the user's own single id (the member row of its
 * personal circle, local, `circle_id` = `single_id`), then every row of the flattened
 * `circles_membership` for it whose team still exists. circles writes that table in the same
 * request as the change (`MembershipService::onUpdate`): direct members, members through a
 * group (its hidden team) or a nested team, never invitations (level 0) (docs/host-adapter.md).
 */
export function userTeams(prefix: string): string {
  const p = prefix;
  // circles reads the single id from the user's preference first (getCachedLocalFederatedUser):
  // one primary-key read, where circles_member has no index on user_id.
  const cached = `SELECT configvalue FROM ${p}preferences WHERE userid = ? AND appid = 'circles' AND configkey = 'userSingleId' AND configvalue <> ''`;
  const single = `SELECT MIN(m.single_id) FROM ${p}circles_member m WHERE m.user_id = ? AND ${LOCAL_USER_SINGLE('m')}`;
  return (
    `ut (single_id, circle_id) AS (SELECT ms.single_id, ms.circle_id FROM ${p}circles_membership ms` +
    ` JOIN ${p}circles_circle tc ON tc.unique_id = ms.circle_id WHERE ms.single_id = COALESCE((${cached}), (${single})))`
  );
}

/**
 * A team share's own row, not a member's child row: `parent` NULL, tested so that no index on
 * `parent` serves it (every share but children has NULL there: SQLite chose parent_index and
 * read them all; test/host-plan-shape).
 */
export const TEAM_SHARE_ROW = 'COALESCE(s.parent, 0) = 0';

/**
 * Team shares (type 7) of the teams in `teams` (a CTE with `single_id`, `circle_id`): the share
 * row itself (`parent` NULL: circles keeps per-member rows as its children) and the member's
 * own child row `o` (type 7, `parent` the share, `share_with` the member's single id), written
 * when that member moved or left it, or when Nextcloud renamed its target apart.
 */
export function teamShareJoin(prefix: string, teams: string): string {
  return (
    `FROM ${prefix}share s JOIN ${teams} ON s.share_type = 7 AND ${TEAM_SHARE_ROW} AND s.share_with = ${teams}.circle_id` +
    ` LEFT JOIN ${prefix}share o ON o.share_type = 7 AND o.parent = s.id AND o.share_with = ${teams}.single_id`
  );
}

/**
 * A team share's columns in `candidateColumns`' order: the child row's target, its permissions
 * where lower (ShareWrapper::getShare), always accepted (circles writes and reads status 1).
 * One `?`: now.
 */
export function teamCandidateColumns(): string {
  return (
    `s.id, s.share_type, s.uid_owner, s.uid_initiator, s.file_source, s.stime,` +
    ` CASE WHEN o.permissions IS NOT NULL AND o.permissions < s.permissions THEN o.permissions ELSE s.permissions END AS perms, 1 AS accepted,` +
    ` COALESCE(o.file_target, s.file_target) AS target, CASE WHEN s.expiration IS NOT NULL AND s.expiration <= ? THEN 'expired' END AS expired`
  );
}

/** How a member is in a team: directly, or through the group or team that is the team's member on the way. */
export type TeamRoute = { readonly kind: 'direct' } | { readonly kind: 'group' | 'team'; readonly name: string };

/** circles' `source` of a group's hidden team (`Member::TYPE_GROUP`). */
const GROUP_SOURCE = 2;

/**
 * The route of a membership row: depth 1 is a direct member; deeper, `inheritance_last` is the
 * team's own member the membership runs through (a group's hidden team, or a nested team).
 */
export function teamRouteOf(depth: number, viaSource: number | null, viaName: string | null): TeamRoute {
  if (depth <= 1 || viaName === null) return { kind: 'direct' };
  return { kind: viaSource === GROUP_SOURCE ? 'group' : 'team', name: viaName };
}

/**
 * The columns that name a team and a member's route: the team's display name (`tn`), the
 * membership's depth (`td`), and the display name and source of the circle it runs through
 * (`vn`, `vs`). `ms` is the membership row, `tc` the team.
 */
export function routeJoins(prefix: string): string {
  return `LEFT JOIN ${prefix}circles_circle via ON via.unique_id = ms.inheritance_last AND ms.inheritance_depth > 1`;
}

/** Whom `why` names a team share to: the team, and how the user is in it where known (`why.to.*`). */
export function teamTo(team: string, user: string, route: TeamRoute | null): Message {
  if (route === null) return msg('why.to.team', { team });
  if (route.kind === 'direct') return msg('why.to.team_member', { team, user });
  return msg('why.to.team_via', { team, user, via: routeMessage(route) });
}

/** `through group accounting`, `through team Sub`, `directly`. */
export function routeMessage(route: TeamRoute): Message {
  if (route.kind === 'direct') return msg('why.via.direct');
  return msg(route.kind === 'group' ? 'why.via.group' : 'why.via.team', { name: route.name });
}

/** Talk rooms (10) and Deck boards (12): shares whose members live in apps the product does not read. */
export const UNSUPPORTED_SHARE_TYPES: readonly number[] = [10, 12];

/** `check`: the archive account's Talk room and Deck board shares of files and folders, by type (`b`), counted (`a`). */
export function buildUnsupportedShares(prefix: string, archiveAccount: string): { sql: string; params: string[] } {
  return {
    sql:
      `SELECT share_type AS b, COUNT(*) AS a FROM ${prefix}share WHERE uid_owner = ? AND share_type IN (${UNSUPPORTED_SHARE_TYPES.join(', ')})` +
      ` AND item_type IN ('file', 'folder') GROUP BY share_type`,
    params: [archiveAccount],
  };
}

/** What an unsupported share goes through, for `why`. */
export function unsupportedKind(shareType: number): Message {
  return msg(shareType === 10 ? 'why.unsupported.room' : 'why.unsupported.deck');
}
