/**
 * File access control's rules as rules/access-rules.ts judges them: each check class and
 * operator of the workflow engine (34.0.1 and 33.0.1 read alike), the views an access passes
 * (the owner's storage with the tags of every folder above, the shared storage from its root),
 * the app's 4.x and 5.x reading of a matched rule, and what cannot be decided ahead of the request.
 */
import { describe, expect, it } from '@jest/globals';
import {
  accessOutcome,
  checkOutcome,
  phpRegex,
  viewsOf,
  type AccessCheck,
  type AccessFacts,
  type AccessRule,
  type AccessRuleSet,
  type NodeView,
  type StoredNode,
} from '../src/core/host/rules/access-rules.js';

const CHECK = 'OCA\\WorkflowEngine\\Check\\';
const check = (name: string, operator: string, value: string): AccessCheck => ({ class: `${CHECK}${name}`, operator, value });
const view = (name: string, mimetype = 'application/pdf', tags: readonly number[] = []): NodeView => ({ name, mimetype, tags: new Set(tags) });
const none = new Set<string>();

describe('each check as the workflow engine answers it', () => {
  it('FileName: is / !is ignore case, matches / !matches take a PHP pattern', () => {
    expect(checkOutcome(check('FileName', 'is', 'Secret.PDF'), none, view('secret.pdf'))).toBe('yes');
    expect(checkOutcome(check('FileName', '!is', 'Secret.PDF'), none, view('secret.pdf'))).toBe('no');
    expect(checkOutcome(check('FileName', 'matches', '/^sec/'), none, view('Secret.pdf'))).toBe('no');
    expect(checkOutcome(check('FileName', 'matches', '/^sec/i'), none, view('Secret.pdf'))).toBe('yes');
    expect(checkOutcome(check('FileName', '!matches', '#\\.pdf$#'), none, view('a.pdf'))).toBe('no');
    expect(checkOutcome(check('FileName', '!matches', '#\\.pdf$#'), none, view('a.txt'))).toBe('yes');
  });

  it('a PHP pattern JavaScript could read otherwise is not decided', () => {
    expect(phpRegex('/a/x')).toBeNull();
    expect(phpRegex('/\\Aa/')).toBeNull();
    expect(phpRegex('abc')).toBeNull();
    expect(phpRegex('{a}i')?.flags).toBe('iu');
    expect(checkOutcome(check('FileName', 'matches', '/\\Asecret/'), none, view('secret'))).toBe('unknown');
  });

  it('FileMimeType: the stored type, compared exactly; octet-stream is sniffed by Nextcloud, so not decided', () => {
    expect(checkOutcome(check('FileMimeType', 'is', 'application/pdf'), none, view('a', 'application/pdf'))).toBe('yes');
    expect(checkOutcome(check('FileMimeType', 'is', 'Application/PDF'), none, view('a', 'application/pdf'))).toBe('no');
    expect(checkOutcome(check('FileMimeType', 'matches', '/^image\\//'), none, view('a', 'image/png'))).toBe('yes');
    expect(checkOutcome(check('FileMimeType', '!is', 'application/pdf'), none, view('a', 'application/octet-stream'))).toBe('unknown');
  });

  it('FileSystemTags: the tag id among the tags of the node and its folders', () => {
    expect(checkOutcome(check('FileSystemTags', 'is', '7'), none, view('a', 'x', [3, 7]))).toBe('yes');
    expect(checkOutcome(check('FileSystemTags', 'is', '7'), none, view('a', 'x', [3]))).toBe('no');
    expect(checkOutcome(check('FileSystemTags', '!is', '7'), none, view('a', 'x', [3]))).toBe('yes');
    expect(checkOutcome(check('FileSystemTags', '!is', '7'), none, view('a', 'x', [7]))).toBe('no');
  });

  it("UserGroupMembership: the asking account's groups", () => {
    const groups = new Set(['denied']);
    expect(checkOutcome(check('UserGroupMembership', 'is', 'denied'), groups, view('a'))).toBe('yes');
    expect(checkOutcome(check('UserGroupMembership', '!is', 'denied'), groups, view('a'))).toBe('no');
    expect(checkOutcome(check('UserGroupMembership', 'is', 'denied'), none, view('a'))).toBe('no');
    expect(checkOutcome(check('UserGroupMembership', '!is', 'denied'), none, view('a'))).toBe('yes');
    // A group the database backend does not hold (an LDAP group): its members are not in group_user.
    expect(checkOutcome(check('UserGroupMembership', 'is', 'ldap-staff'), none, view('a'), new Set(['denied']))).toBe('unknown');
    expect(checkOutcome(check('UserGroupMembership', 'is', 'denied'), groups, view('a'), new Set(['denied']))).toBe('yes');
  });

  it('request-bound checks (address, time, user agent, URL, the size headers) and unknown classes are not decided', () => {
    for (const name of ['RequestRemoteAddress', 'RequestTime', 'RequestUserAgent', 'RequestURL', 'FileSize'])
      expect(checkOutcome(check(name, 'is', 'x'), none, view('a'))).toBe('unknown');
    expect(checkOutcome({ class: 'OCA\\Other\\Check', operator: 'is', value: 'x' }, none, view('a'))).toBe('unknown');
  });
});

const rule = (id: number, checks: readonly AccessCheck[] | null, operation = 'deny'): AccessRule => ({ id, name: `r${id}`, operation, checks });
const set = (rules: readonly AccessRule[], appVersion = '5.0.0'): AccessRuleSet => ({ appVersion, rules, tagNames: new Map() });

describe('a rule: all its checks, in any view the access passes', () => {
  const secretForDenied = rule(1, [check('FileSystemTags', 'is', '7'), check('UserGroupMembership', 'is', 'denied')]);

  it('blocks when every check matches in one view, not when one check fails', () => {
    const tagged = { groups: new Set(['denied']), views: [view('a', 'x', [7])] };
    expect(accessOutcome(set([secretForDenied]), tagged)).toEqual({ kind: 'blocked', rule: secretForDenied, certain: true });
    expect(accessOutcome(set([secretForDenied]), { ...tagged, groups: none })).toEqual({ kind: 'open' });
    expect(accessOutcome(set([secretForDenied]), { ...tagged, views: [view('a')] })).toEqual({ kind: 'open' });
    expect(accessOutcome(null, tagged)).toEqual({ kind: 'open' });
  });

  it('a failing decidable check settles a rule whose other check depends on the request', () => {
    const browsers = rule(2, [check('UserGroupMembership', 'is', 'denied'), check('RequestUserAgent', 'matches', '/Mozilla/')]);
    expect(accessOutcome(set([browsers]), { groups: none, views: [view('a')] })).toEqual({ kind: 'open' });
    expect(accessOutcome(set([browsers]), { groups: new Set(['denied']), views: [view('a')] })).toEqual({ kind: 'blocked', rule: browsers, certain: false });
  });

  it('a certain block wins over an undecided rule listed before it; a missing check is undecided', () => {
    const undecided = rule(3, [check('RequestTime', 'in', '["10:00 Etc/UTC","11:00 Etc/UTC"]')]);
    const certain = rule(4, [check('FileName', 'is', 'a')]);
    expect(accessOutcome(set([undecided, certain]), { groups: none, views: [view('a')] })).toEqual({ kind: 'blocked', rule: certain, certain: true });
    expect(accessOutcome(set([rule(5, null)]), { groups: none, views: [view('a')] })).toMatchObject({ kind: 'blocked', certain: false });
  });

  it('5.x: a rule granting READ does not block reading; 4.x: every matched rule of the class blocks', () => {
    const grants = rule(6, [check('FileName', 'is', 'a')], '{"permissions":1}');
    const withholds = rule(7, [check('FileName', 'is', 'a')], '{"permissions":4}');
    const subject = { groups: none, views: [view('a')] };
    expect(accessOutcome(set([grants]), subject)).toEqual({ kind: 'open' });
    expect(accessOutcome(set([withholds]), subject)).toMatchObject({ kind: 'blocked', certain: true });
    expect(accessOutcome(set([grants], '4.0.1'), subject)).toMatchObject({ kind: 'blocked', certain: true });
  });
});

describe('the views of an access', () => {
  const node = (fileId: number, path: string, tags: readonly number[] = [], mimetype = 'httpd/unix-directory'): [string, StoredNode] => [
    path,
    { fileId, storage: 1, path, name: path.split('/').pop() ?? '', mimetype, tags: new Set(tags) },
  ];
  const facts: AccessFacts = {
    rules: null,
    groups: none,
    knownGroups: none,
    nodes: new Map([
      [1, new Map([node(1, 'files'), node(2, 'files/Top', [9]), node(3, 'files/Top/Shared'), node(4, 'files/Top/Shared/C.pdf', [5], 'application/pdf')])],
    ]),
  };

  it("the owner's own file: each node up to the first folder, with the tags of every folder above", () => {
    const views = viewsOf(facts, 1, 'files/Top/Shared/C.pdf', null);
    expect(views.map((v) => [v.name, [...v.tags].sort()])).toEqual([
      ['C.pdf', [5, 9]],
      ['Shared', [9]],
      ['Top', [9]],
    ]);
  });

  it("through a share of files/Top/Shared: the owner's storage (a tag above the shared folder counts) and the shared storage (root named '')", () => {
    const views = viewsOf(facts, 1, 'files/Top/Shared/C.pdf', 'files/Top/Shared');
    expect(views.map((v) => [v.name, [...v.tags].sort()])).toEqual([
      ['C.pdf', [5, 9]],
      ['C.pdf', [5]],
      ['Shared', [9]],
      ['', []],
    ]);
  });
});
