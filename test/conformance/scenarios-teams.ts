/**
 * Teams (the circles app, share type 7) in a real Nextcloud, built only through the OCS Teams
 * API (`/ocs/v2.php/apps/circles/circles`, `…/members`), the sharing API with shareType 7 and
 * occ: who a team share reaches by every route circles lists, how membership changes move it,
 * and where a team share and a user share take one target (issue 34's LEAK on 34.0.1). Lean on
 * purpose: few users, one judgement per state (docs/host-adapter.md, "Teams").
 */
import type { Scenario } from './scenarios.js';
import type { ScenarioWorld } from './world.js';

async function files(s: ScenarioWorld, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const folder = path.split('/').slice(0, -1).join('/');
    if (folder !== '') await s.archiveUser.mkdirs(folder);
    await s.archiveUser.put(path);
  }
}

export const TEAM_SCENARIOS: readonly Scenario[] = [
  {
    name: 'team share: directly, through a group, through a nested team, an invitation; then a member added and one removed',
    body: async (s) => {
      await s.users('anna', 'bob', 'carl', 'dora');
      await files(s, ['Finance/A [P1].pdf', 'Guests/B [P2].pdf', 'Private/C [P3].pdf']);
      const accounting = await s.group('accounting', ['carl']);
      const archive = s.archiveUser;
      // The archive account owns the teams (and is a member of each: its own shares never mount for it).
      const sub = await archive.createTeam(`${s.prefix}Sub`);
      await archive.addTeamMember(sub, s.login('bob'), 'user');
      const finance = await archive.createTeam(`${s.prefix}Finance`);
      const annaMember = await archive.addTeamMember(finance, s.login('anna'), 'user');
      await archive.addTeamMember(finance, accounting, 'group');
      await archive.addTeamMember(finance, sub, 'team');
      await archive.share({ path: '/Finance', type: 'team', with: finance });
      // A team whose members must accept: dora is invited and does not accept.
      const guests = await archive.createTeam(`${s.prefix}Guests`);
      await archive.setTeamConfig(guests, 32);
      await archive.addTeamMember(guests, s.login('dora'), 'user');
      await archive.share({ path: '/Guests', type: 'team', with: guests });
      await s.judge('Finance: anna, group accounting (carl), team Sub (bob); Guests: dora invited', [1, 2, 3]);
      await archive.addTeamMember(finance, s.login('dora'), 'user');
      await archive.removeTeamMember(finance, annaMember);
      await s.nc.removeFromGroup(s.login('carl'), accounting);
      await s.judge('dora joined Finance, anna removed, carl left group accounting', [1, 2, 3]);
    },
  },
  {
    name: 'team share and user share at one target, the team joined after the user share',
    body: async (s) => {
      await s.users('anna', 'bob');
      await files(s, ['Z/A [P1].pdf', 'Y/B [P2].pdf']);
      // The archive account's user share takes /Z for anna; bob's team holds his own /Z.
      await s.archiveUser.share({ path: '/Z', type: 'user', with: s.login('anna') });
      const bob = await s.user('bob');
      await bob.mkdirs('Z');
      await bob.put('Z/bob.txt');
      const bobs = await bob.createTeam(`${s.prefix}Bobs`);
      await bob.share({ path: '/Z', type: 'team', with: bobs });
      // bob's user share takes /Y for anna; the archive account's team holds its /Y.
      await bob.mkdirs('Y');
      await bob.put('Y/bob.txt');
      await bob.share({ path: '/Y', type: 'user', with: s.login('anna') });
      const archives = await s.archiveUser.createTeam(`${s.prefix}Archives`);
      await s.archiveUser.share({ path: '/Y', type: 'team', with: archives });
      // anna joins both teams afterwards: Nextcloud writes her no child row, both targets collide.
      await bob.addTeamMember(bobs, s.login('anna'), 'user');
      await s.archiveUser.addTeamMember(archives, s.login('anna'), 'user');
      await s.record('anna: user shares at /Z (archive) and /Y (bob), then joined the teams holding bob’s /Z and the archive’s /Y');
      await s.judge('anna joined both teams', [1, 2]);
    },
  },
];
