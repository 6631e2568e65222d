/** What the rules answer: a file a user can open, and what keeps a share from mounting. */
import type { Message } from '../../i18n/catalog.js';
import type { ObstacleKind } from './share-rules.js';
import type { TeamRoute } from './team-rules.js';

/** A file the user can open, as that user sees it. */
export interface VisibleFile {
  readonly documentId: number;
  readonly fileId: number;
  /** Path the user sees, from the root of the user's files, starting with `/`. */
  readonly path: string;
  readonly name: string;
  readonly mimetype: string;
  /** uid of the file's owner. */
  readonly owner: string;
}

/**
 * Why the user cannot open a file of the archive account although the archive account has it:
 * the nearest share row that covers the file and does not mount for the user (explain only).
 */
export interface ShareObstacle {
  /** The rule that keeps the share from mounting (rules/share-rules.ts words each). */
  readonly kind: ObstacleKind;
  /** The shared node as its owner sees it (`/Paperless/Invoices`); null for `sharing off`. */
  readonly nodePath: string | null;
  /** Whether the shared node is the file itself (not a folder holding it). */
  readonly nodeIsFile: boolean;
  /** Who shared it: the initiator, else the owner. */
  readonly sharer: string | null;
  /** The share's type (0 user, 1 group, 7 team, 10 Talk room, 12 Deck board); null for `sharing off`. */
  readonly shareType: number | null;
  /** The group of a group share; null for a user share. */
  readonly group: string | null;
  /** The team of a team share (its display name); null for other shares. */
  readonly team: string | null;
  /** How the user is in that team, where the user is (team-rules.ts); null otherwise. */
  readonly teamRoute: TeamRoute | null;
  /** Naive UTC `YYYY-MM-DD HH:MM:SS` (`expired`). */
  readonly expiration: string | null;
  /** The disabled owner or resharer (`disabled sharer`). */
  readonly disabledAccount: string | null;
  /** `colliding target`: the other sharers whose shares reach the user at the same path. */
  readonly collidesWith: readonly string[];
  /** `colliding target`: the sharer whose share the host mounts there instead, when its order tells. */
  readonly mountedFrom: string | null;
  /** `colliding target`: the release moves the others to a free name at the user's next setup (33.0.1), instead of hiding them. */
  readonly renamedAtSetup: boolean;
  /** `colliding target`: the path those shares have in the user's files. */
  readonly target: string | null;
  /** What the rule assumed for want of a fact (an unknown release), or null (`why.assumed.*`). */
  readonly assumed: Message | null;
}
