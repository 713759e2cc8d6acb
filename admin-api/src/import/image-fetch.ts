import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/** Why an image could not be fetched, in a sentence for the import's warnings. */
export class ImageFetchError extends Error {}

const MAX_REDIRECTS = 5;

/** Addresses that are not the public internet: private, loopback, link-local, shared, reserved, documentation, multicast. */
const NON_PUBLIC = new net.BlockList();
for (const [range, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(range, bits, 'ipv4');
for (const [range, bits] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(range, bits, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const [hi, lo] = [parseInt(hexMapped[1]!, 16), parseInt(hexMapped[2]!, 16)];
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !NON_PUBLIC.check(address, 'ipv6');
}

/**
 * Loopback servers the tests run (address:port), which only code in the same process can add:
 * there is no setting for it, so no deployment can turn the guard off. Empty in production.
 */
export const TEST_ALLOWED_ADDRESSES = new Set<string>();

function allowed(address: string, port: number): boolean {
  return isPublicAddress(address) || TEST_ALLOWED_ADDRESSES.has(`${address}:${port}`);
}

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Downloads an image from the web for an import, never from this server's own network: the name is
 * resolved here and the connection goes to the address that was checked (no second lookup an
 * attacker's DNS could answer differently); every redirect is checked the same way.
 */
export async function fetchImage(address: string, limits: FetchLimits): Promise<Buffer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new ImageFetchError('not a web address');
  }
  for (let hop = 0; ; hop++) {
    const answer = await get(url, limits, signal);
    if ('redirect' in answer) {
      if (hop >= MAX_REDIRECTS) throw new ImageFetchError('too many redirects');
      url = answer.redirect;
      continue;
    }
    return answer.body;
  }
}

function get(url: URL, limits: FetchLimits, signal: AbortSignal): Promise<{ body: Buffer } | { redirect: URL }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new ImageFetchError(`only http and https addresses are fetched (${url.protocol})`));
  }
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !allowed(host, port)) {
    return Promise.reject(new ImageFetchError(`refused: ${host} is not a public address`));
  }
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const usable = addresses.filter((a) => allowed(a.address, port));
      if (!usable.length) {
        const refused = new ImageFetchError(
          `refused: ${hostname} resolves to ${addresses.map((a) => a.address).join(', ')}, not a public address`,
        );
        return callback(refused as NodeJS.ErrnoException, '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, {
      lookup,
      signal,
      agent: false,
      headers: { 'user-agent': 'portfolio-admin-api import', accept: 'image/*' },
    });
    request.on('error', (error) => {
      if (error instanceof ImageFetchError) reject(error);
      else if (signal.aborted) reject(new ImageFetchError(`no answer within ${limits.timeoutMs} ms`));
      else reject(new ImageFetchError((error as NodeJS.ErrnoException).code ?? error.message));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        try {
          resolve({ redirect: new URL(response.headers.location, url) });
        } catch {
          reject(new ImageFetchError('a redirect to something that is not an address'));
        }
        return;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return reject(new ImageFetchError(`HTTP ${status}`));
      }
      const tooLarge = () => new ImageFetchError(`larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB`);
      if (Number(response.headers['content-length'] ?? 0) > limits.maxBytes) {
        request.destroy();
        return reject(tooLarge());
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          request.destroy();
          reject(tooLarge());
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve({ body: Buffer.concat(chunks) }));
      response.on('error', (error) => reject(signal.aborted ? new ImageFetchError(`no answer within ${limits.timeoutMs} ms`) : error));
    });
  });
}
