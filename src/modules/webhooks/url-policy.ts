// Where webhooks may go. https always; plain http only to loopback, and only in sandbox. In
// production a destination must not resolve to a private, loopback, link-local or otherwise
// internal address: checked when it is saved, and again when a delivery connects (the address
// checked is the one connected to, so DNS cannot be switched between the check and the request).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export type Environment = 'sandbox' | 'production';

const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // ::/96 also holds the IPv4-compatible form (::127.0.0.1); NAT64 (64:ff9b::/96) maps to IPv4 too.
  ['::', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return internal.check(mapped[1]!, 'ipv4');
    return internal.check(address, 'ipv6');
  }
  return true;
}

function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/** The rules that need no network: scheme, shape, and in production no literal internal address. */
export function checkDestinationUrl(text: string, environment: Environment): UrlCheck {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'is not an absolute URL' };
  }
  if (url.username || url.password) return { ok: false, message: 'must not carry credentials; authenticate deliveries by their signature' };
  if (url.hash) return { ok: false, message: 'must not have a #fragment' };
  if (url.protocol === 'http:') {
    if (environment === 'sandbox' && isLoopbackHost(url.hostname)) return { ok: true, url };
    return { ok: false, message: environment === 'sandbox' ? 'must be https (http only to localhost in sandbox)' : 'must be https' };
  }
  if (url.protocol !== 'https:') return { ok: false, message: 'must be https' };
  if (environment === 'production') {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isLoopbackHost(host) || (isIP(host) && isInternalAddress(host))) return { ok: false, message: 'must not point at a private, loopback or link-local address' };
  }
  return { ok: true, url };
}

/** Production, at save time: every address the host resolves to must be public. */
export async function checkResolvedAddresses(hostname: string, resolve = lookup): Promise<UrlCheck | { ok: true }> {
  try {
    const addresses = await resolve(hostname.replace(/^\[|\]$/g, ''), { all: true });
    if (addresses.length === 0) return { ok: false, message: 'does not resolve' };
    if (addresses.some((a) => isInternalAddress(a.address))) return { ok: false, message: 'resolves to a private, loopback or link-local address' };
    return { ok: true };
  } catch {
    return { ok: false, message: 'does not resolve' };
  }
}
