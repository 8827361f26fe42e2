import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "../../../server/security/private-address.ts";

describe("isPrivateAddress", () => {
  it.each([
    "0.0.0.0",
    "10.1.2.3",
    "100.64.0.1",
    "100.127.255.255",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.1",
    "192.0.2.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.1",
    "203.0.113.1",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
  ])("refuses IPv4 %s", (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(["8.8.8.8", "1.1.1.1", "11.0.0.1", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0", "192.169.0.1", "198.17.255.255", "198.20.0.0", "223.255.255.255"])(
    "allows public IPv4 %s",
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  it.each([
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata address"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::ffff:0:127.0.0.1", "SIIT-translated loopback"],
    ["64:ff9b::127.0.0.1", "NAT64 of loopback"],
    ["64:ff9b::a00:1", "NAT64 of 10.0.0.1"],
    ["64:ff9b:1::808:808", "local-use NAT64 prefix"],
    ["2002:7f00:1::1", "6to4 of loopback"],
    ["2002:a00:1::", "6to4 of 10.0.0.1"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["100::1", "discard-only"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with zone"],
    ["febf::1", "link-local, top of range"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
  ])("refuses IPv6 %s (%s)", (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(["2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450::1", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1"])(
    "allows public IPv6 %s",
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  it("treats anything that is not an IP address as private", () => {
    for (const value of ["localhost", "example.com", "", "127.1", "1.2.3.4.5"]) expect(isPrivateAddress(value)).toBe(true);
  });
});
