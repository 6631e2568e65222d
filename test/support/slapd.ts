/**
 * A real OpenLDAP for tests: Debian's slapd with its own slapd.conf (mdb backend) and data in
 * a temporary folder, on a loopback port, stopped by its PID; never the system's /etc/ldap
 * service. Entries are changed with ldap-utils (`ldapmodify`), as an administrator would.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LDAP_SUFFIX = 'dc=example,dc=org';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_SUFFIX}`;
export const LDAP_ADMIN_PASSWORD = 'Ldap-admin-1234';
export const LDAP_PEOPLE = `ou=people,${LDAP_SUFFIX}`;
export const LDAP_GROUPS = `ou=groups,${LDAP_SUFFIX}`;

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';

/** Why no slapd can be started here, or null. */
export function slapdUnavailable(): string | null {
  for (const tool of [SLAPD, SLAPADD, '/usr/bin/ldapmodify']) if (!existsSync(tool)) return `${tool} is not installed (Debian's slapd and ldap-utils)`;
  return null;
}

export interface Slapd {
  readonly url: string;
  readonly port: number;
  /** Applies LDIF change records (`changetype: add|modify|delete`) as the directory's administrator. */
  modify(ldif: string): Promise<void>;
  /** Stops the server (its data stays): the directory is down. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(file: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, [...args], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')}: ${error.message} ${stderr}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Whether something accepts connections on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The base entries: the suffix, `ou=people` and `ou=groups`. */
const BASE_LDIF = `dn: ${LDAP_SUFFIX}
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ${LDAP_PEOPLE}
objectClass: organizationalUnit
ou: people

dn: ${LDAP_GROUPS}
objectClass: organizationalUnit
ou: groups
`;

/** Starts a slapd with the base entries and `ldif` (plain entries) loaded by slapadd. */
export async function startSlapd(ldif = ''): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'dus-slapd-'));
  const data = join(dir, 'db');
  mkdirSync(data);
  const pidFile = join(dir, 'slapd.pid');
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'nis', 'inetorgperson'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      `pidfile ${pidFile}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${LDAP_ADMIN_DN}"`,
      `rootpw ${LDAP_ADMIN_PASSWORD}`,
      `directory ${data}`,
      'maxsize 10485760',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'data.ldif'), `${BASE_LDIF}\n${ldif}`);
  execFileSync(SLAPADD, ['-f', conf, '-l', join(dir, 'data.ldif')], { stdio: 'pipe' });
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}/`;
  const pid = (): number | null => {
    try {
      return Number(readFileSync(pidFile, 'utf8').trim());
    } catch {
      return null;
    }
  };
  const alive = (p: number): boolean => {
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  };
  const slapd: Slapd = {
    url,
    port,
    async modify(changes) {
      await run('/usr/bin/ldapmodify', ['-x', '-H', url, '-D', LDAP_ADMIN_DN, '-w', LDAP_ADMIN_PASSWORD], changes);
    },
    async stop() {
      const p = pid();
      if (p === null) return;
      process.kill(p, 'SIGTERM');
      for (let i = 0; i < 100 && alive(p); i += 1) await sleep(50);
      rmSync(pidFile, { force: true });
    },
    async start() {
      if (await listening(port)) return;
      // slapd forks and returns once it listens.
      await run(SLAPD, ['-h', url, '-f', conf]);
      for (let i = 0; i < 250 && !(await listening(port)); i += 1) await sleep(20);
    },
    async close() {
      await slapd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await slapd.start();
  return slapd;
}

/** An inetOrgPerson under `ou=people` with a password. */
export function personLdif(uid: string, password: string): string {
  return `dn: uid=${uid},${LDAP_PEOPLE}\nobjectClass: inetOrgPerson\nuid: ${uid}\ncn: ${uid}\nsn: ${uid}\nuserPassword: ${password}\n`;
}

/** A groupOfNames under `ou=groups` with these member DNs (groupOfNames needs one: the suffix stands in for none). */
export function groupLdif(cn: string, memberDns: readonly string[]): string {
  const members = memberDns.length === 0 ? [LDAP_SUFFIX] : memberDns;
  return `dn: cn=${cn},${LDAP_GROUPS}\nobjectClass: groupOfNames\ncn: ${cn}\n${members.map((m) => `member: ${m}`).join('\n')}\n`;
}

export const personDn = (uid: string): string => `uid=${uid},${LDAP_PEOPLE}`;
