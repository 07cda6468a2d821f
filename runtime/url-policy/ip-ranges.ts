// Which special-purpose range an address falls in (IANA IPv4/IPv6 special-purpose registries,
// seed 004 §4.4). Ranges that embed an IPv4 address (NAT64, 6to4) are judged by that address;
// IPv4-mapped and IPv4-compatible IPv6 are refused outright, whatever they embed.
import { inPrefix, parseIp, type IpAddress } from './ip-address.ts';

/** Categories a policy file may lift (`allow_private_networks`). */
export const liftableCategories = ['loopback', 'private', 'cgnat', 'link_local', 'ula', 'reserved'] as const;
export type LiftableCategory = (typeof liftableCategories)[number];

/** Categories no policy lifts. */
export const fixedCategories = ['metadata', 'unspecified', 'multicast', 'broadcast', 'ipv4_mapped'] as const;
export type FixedCategory = (typeof fixedCategories)[number];

export type AddressCategory = LiftableCategory | FixedCategory;

export interface RangeEntry {
  cidr: string;
  category: AddressCategory;
  network: IpAddress;
  prefix: number;
}

/** First match wins: specific entries (metadata) come before the ranges that contain them. */
const table: Array<[string, AddressCategory]> = [
  // IPv4
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OpenStack, DigitalOcean...
  ['169.254.170.2/32', 'metadata'], // AWS ECS task metadata
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud
  ['192.0.0.192/32', 'metadata'], // Oracle Cloud
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // TEST-NET-1
  ['192.88.99.0/24', 'reserved'], // 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // TEST-NET-2
  ['203.0.113.0/24', 'reserved'], // TEST-NET-3
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
  // IPv6
  ['fd00:ec2::254/128', 'metadata'], // AWS IMDS over IPv6
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'ipv4_mapped'],
  ['::ffff:0:0:0/96', 'ipv4_mapped'], // SIIT IPv4-translated
  ['::/96', 'ipv4_mapped'], // deprecated IPv4-compatible
  ['64:ff9b:1::/48', 'private'], // local-use NAT64
  ['100::/64', 'reserved'], // discard-only
  ['2001::/32', 'reserved'], // Teredo
  ['2001:db8::/32', 'reserved'], // documentation
  ['2001:2::/48', 'reserved'], // benchmarking
  ['fc00::/7', 'ula'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'private'], // deprecated site-local
  ['ff00::/8', 'multicast'],
];

export const specialRanges: readonly RangeEntry[] = table.map(([cidr, category]) => {
  const [address, prefix] = cidr.split('/') as [string, string];
  const network = parseIp(address);
  if (!network) throw new Error(`bad range ${cidr}`); // a typo in the table above, caught by any test
  return { cidr, category, network, prefix: Number(prefix) };
});

const NAT64 = parseIp('64:ff9b::')!;
const SIX_TO_FOUR = parseIp('2002::')!;

function embeddedIpv4(ip: IpAddress): IpAddress | null {
  if (ip.family !== 6) return null;
  if (inPrefix(ip, NAT64, 96)) return { family: 4, bytes: ip.bytes.slice(12, 16) };
  if (inPrefix(ip, SIX_TO_FOUR, 16)) return { family: 4, bytes: ip.bytes.slice(2, 6) };
  return null;
}

export interface Classification {
  category: AddressCategory;
  cidr: string;
  /** Set when the category came from an IPv4 address embedded in an IPv6 one (NAT64, 6to4). */
  via?: string;
}

/** The special range `ip` belongs to, or null for an ordinary public address. */
export function classifyAddress(ip: IpAddress): Classification | null {
  for (const entry of specialRanges) {
    if (inPrefix(ip, entry.network, entry.prefix)) return { category: entry.category, cidr: entry.cidr };
  }
  const inner = embeddedIpv4(ip);
  if (inner) {
    const found = classifyAddress(inner);
    if (found) return { ...found, via: inPrefix(ip, NAT64, 96) ? '64:ff9b::/96' : '2002::/16' };
  }
  return null;
}

export function isLiftable(category: AddressCategory): category is LiftableCategory {
  return (liftableCategories as readonly string[]).includes(category);
}
