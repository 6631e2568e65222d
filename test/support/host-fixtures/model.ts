/** What a fixture wrote, kept in memory so the reference model can judge without SQL. */
export interface ModelFile {
  readonly fileid: number;
  readonly storage: number;
  readonly path: string;
  readonly name: string;
  readonly mimetype: string;
  readonly permissions: number;
}

export interface ModelShare {
  readonly id: number;
  readonly shareType: number;
  readonly shareWith: string | null;
  readonly owner: string;
  readonly initiator: string | null;
  readonly parent: number | null;
  readonly fileSource: number;
  readonly itemType: 'file' | 'folder';
  readonly target: string;
  readonly permissions: number;
  readonly stime: number;
  readonly accepted: number;
  /** Naive UTC `YYYY-MM-DD HH:MM:SS`, as the host stores it. */
  readonly expiration: string | null;
}

export interface FixtureModel {
  readonly users: Map<string, { uid: string; enabled: boolean; lang: string | null; displayName: string | null }>;
  /** numeric storage id → storage id string. */
  readonly storages: Map<number, string>;
  readonly files: Map<number, ModelFile>;
  readonly shares: Map<number, ModelShare>;
  /** gid → direct members. */
  readonly groups: Map<string, Set<string>>;
  readonly appConfig: Map<string, string>;
  readonly preferences: Map<string, string>;
}

export function emptyModel(): FixtureModel {
  return {
    users: new Map(),
    storages: new Map(),
    files: new Map(),
    shares: new Map(),
    groups: new Map(),
    appConfig: new Map(),
    preferences: new Map(),
  };
}

export const configKey = (app: string, key: string): string => `${app}\u0000${key}`;
export const preferenceKey = (uid: string, app: string, key: string): string => `${uid}\u0000${app}\u0000${key}`;
