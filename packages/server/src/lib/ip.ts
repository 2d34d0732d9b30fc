import ipaddr from 'ipaddr.js';

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** An IPv4 address already written the one way ipaddr.js would write it (no leading zeros). */
const CANONICAL_IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);

/** The key a client's address is counted under: IPv4 by address, IPv6 by its /64 (one household or server usually owns a whole /64). */
export function ipBucket(ip: string): string {
  // Most callers: counted on every game call, so the parse is skipped when it would change nothing.
  if (CANONICAL_IPV4.test(ip)) return ip;
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

/** True for 127.0.0.0/8 and ::1 (and IPv4-mapped loopback). */
export function isLoopback(ip: string): boolean {
  return ipaddr.isValid(ip) && ipaddr.process(ip).range() === 'loopback';
}
