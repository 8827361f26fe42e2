import { isIP } from "node:net";

/** IPv4 ranges that are not the public internet: loopback, private, link-local, CGNAT, reserved... */
const V4_BLOCKED: Array<[string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

const V4_MASKS = V4_BLOCKED.map(([base, bits]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return [(v4ToInt(base) & mask) >>> 0, mask] as const;
});

function v4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => acc * 256 + Number(part), 0) >>> 0;
}

function v4Blocked(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_MASKS.some(([base, mask]) => ((n & mask) >>> 0) === base);
}

function v4FromGroups(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** Expands an IPv6 address to eight 16-bit groups. */
function v6Groups(ip: string): number[] {
  let addr = ip.toLowerCase().split("%")[0];
  const v4Tail = addr.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4Tail) {
    const n = v4ToInt(v4Tail[1]);
    addr = addr.replace(v4Tail[1], `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`);
  }
  const [head, tail] = addr.split("::");
  const h = head ? head.split(":") : [];
  const t = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const fill = addr.includes("::") ? new Array(8 - h.length - t.length).fill("0") : [];
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g || "0", 16));
}

function zeros(g: number[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (g[i] !== 0) return false;
  return true;
}

function v6Blocked(ip: string): boolean {
  const g = v6Groups(ip);
  if (zeros(g, 0, 8)) return true; // ::
  if (zeros(g, 0, 7) && g[7] === 1) return true; // ::1
  // Forms that carry an IPv4 address are judged by that address, so ::ffff:127.0.0.1 is loopback.
  if (zeros(g, 0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4Blocked(v4FromGroups(g[6], g[7])); // mapped, compatible
  if (zeros(g, 0, 4) && g[4] === 0xffff && g[5] === 0) return v4Blocked(v4FromGroups(g[6], g[7])); // ::ffff:0:0/96 (SIIT)
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (zeros(g, 2, 6)) return v4Blocked(v4FromGroups(g[6], g[7])); // 64:ff9b::/96 NAT64
    return true; // 64:ff9b:1::/48 local-use NAT64 and the rest of the prefix
  }
  if (g[0] === 0x2002) return v4Blocked(v4FromGroups(g[1], g[2])); // 6to4 embeds the IPv4 address
  if (g[0] === 0x2001 && g[1] === 0) return true; // Teredo: the embedded address is obfuscated, refuse it
  if (g[0] === 0x0100 && zeros(g, 1, 4)) return true; // 100::/64 discard-only
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** True for any address that is not on the public internet (anything that is not an IP counts as private). */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return v4Blocked(ip);
  if (family === 6) return v6Blocked(ip);
  return true;
}
