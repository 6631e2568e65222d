/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Every address the system resolver gives for a name, in its own order (one lookup per request).
 * node:dns/promises is loaded at the first lookup: an archive server named by its address (the
 * local-address guard asks no resolver then) costs a one-shot command none of its start.
 */
export async function lookupAll(hostname: string): Promise<readonly ResolvedAddress[]> {
  const { lookup } = process.getBuiltinModule('node:dns/promises');
  const answers = await lookup(hostname, { all: true, order: 'verbatim' });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}
