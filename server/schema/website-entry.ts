/**
 * The grammar of a website list entry (`example.com`, `localhost:8787`, `*.example.com`,
 * `localhost:*`): the widget schemas refuse an entry that does not parse, and http/origin.ts
 * matches request origins against the parsed entries.
 */

/** Splits `*.host:port` into its parts; returns undefined for an entry that is not a host. */
export function parseEntry(entry: string): { host: string; port?: string; wildcard: boolean; anyLoopbackPort?: true } | undefined {
  if (entry.toLowerCase() === 'localhost:*') return { host: 'localhost', wildcard: false, anyLoopbackPort: true };
  const match = /^(\*\.)?([a-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}))?$/.exec(entry.toLowerCase());
  if (!match) return undefined;
  const host = match[2]!;
  const wildcard = Boolean(match[1]);
  const port = match[3];
  if (!validHost(host)) return undefined;
  if (port !== undefined && (Number(port) === 0 || Number(port) > 65535)) return undefined;
  // `*.com` would be every site under a top-level domain: a wildcard needs two labels under it.
  if (wildcard && !host.includes('.')) return undefined;
  return { wildcard, host, port };
}

/** A host name with no empty label and no `*` (an IPv6 literal in brackets passes as is). */
export function validHost(host: string): boolean {
  if (host.startsWith('[')) return true;
  return host !== '' && !host.includes('*') && host.split('.').every((label) => label !== '');
}
