// IP address literals as bytes: canonical dotted IPv4 (what the WHATWG URL parser and DNS
// answers produce; the URL parser has already turned decimal, octal, hex and short forms into
// this) and IPv6 in any RFC 4291 text form, with an embedded dotted IPv4 tail. Zone ids
// (`fe80::1%eth0`) are not accepted. Pure; bad input is null, never a throw.

export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
}

const DOTTED_PART = /^(?:0|[1-9]\d{0,2})$/;

/** `a.b.c.d` with decimal parts 0-255 and no leading zeros; anything else is null. */
export function parseIpv4(text: string): IpAddress | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!;
    if (!DOTTED_PART.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return { family: 4, bytes };
}

function parseHextets(text: string, allowIpv4Tail: boolean): number[] | null {
  if (text === '') return [];
  const groups = text.split(':');
  const out: number[] = [];
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!;
    if (allowIpv4Tail && i === groups.length - 1 && group.includes('.')) {
      const v4 = parseIpv4(group);
      if (!v4) return null;
      out.push((v4.bytes[0]! << 8) | v4.bytes[1]!, (v4.bytes[2]! << 8) | v4.bytes[3]!);
      continue;
    }
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    out.push(parseInt(group, 16));
  }
  return out;
}

/** IPv6 text, optionally in brackets (`[::1]`). */
export function parseIpv6(input: string): IpAddress | null {
  let text = input;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.length === 0 || text.length > 45 || text.includes('%')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  let hextets: number[];
  if (halves.length === 2) {
    const head = parseHextets(halves[0]!, false);
    const tail = parseHextets(halves[1]!, true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    hextets = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    const all = parseHextets(text, true);
    if (!all || all.length !== 8) return null;
    hextets = all;
  }
  const bytes = new Uint8Array(16);
  hextets.forEach((value, i) => {
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return { family: 6, bytes };
}

/** Either family; brackets allowed around IPv6. */
export function parseIp(text: string): IpAddress | null {
  return parseIpv4(text) ?? parseIpv6(text);
}

export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return Array.from(ip.bytes).join('.');
  const hextets: string[] = [];
  for (let i = 0; i < 16; i += 2) hextets.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (hextets[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && hextets[j] === '0') j++;
    if (j - i > bestLength && j - i > 1) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (bestStart < 0) return hextets.join(':');
  return `${hextets.slice(0, bestStart).join(':')}::${hextets.slice(bestStart + bestLength).join(':')}`;
}

/** True when the first `prefix` bits of `ip` equal those of `network` (same family). */
export function inPrefix(ip: IpAddress, network: IpAddress, prefix: number): boolean {
  if (ip.family !== network.family) return false;
  let bits = prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip.bytes[i]! & mask) !== (network.bytes[i]! & mask)) return false;
  }
  return true;
}
