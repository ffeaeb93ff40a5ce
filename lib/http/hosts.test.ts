import { describe, expect, it } from "vitest";
import {
  type Authority,
  allowedHostList,
  hostAllowed,
  isLoopbackAddress,
  originMatches,
  parseAuthority,
} from "./hosts";

/** A Host the test means to be valid. */
function host(raw: string): Authority {
  const a = parseAuthority(raw);
  if (!a) throw new Error(`not a host: ${raw}`);
  return a;
}

const allowed = allowedHostList("dash.example.com, ops.example.org:8443,fd00::7, ");

describe("hostAllowed", () => {
  it.each([
    ["127.0.0.1:3000", true],
    ["127.0.0.1", true],
    ["localhost:1", true],
    ["LOCALHOST:3000", true],
    ["localhost.:3000", true],
    ["[::1]:3000", true],
    ["[::1]", true],
    ["dash.example.com", true],
    ["Dash.Example.COM.:443", true],
    ["ops.example.org:8443", true],
    ["ops.example.org:443", false],
    ["[fd00::7]:3000", true],
    ["rebind.attacker.test", false],
    ["rebind.attacker.test:3000", false],
    ["localhost.attacker.test", false],
    ["127.0.0.1.nip.io", false],
    ["127.0.0.2:3000", false],
    ["127.1:3000", false],
    ["0.0.0.0:3000", false],
    ["[::]:3000", false],
    ["[::ffff:127.0.0.1]:3000", false],
    ["evil.example.com", false],
    ["sub.dash.example.com", false],
    ["localhost:99999", false],
    ["localhost:abc", false],
    ["local host", false],
    ["localhost:3000@evil.test", false],
    ["", false],
  ])("%s → %s", (host, ok) => {
    const a = parseAuthority(host);
    expect(a !== null && hostAllowed(a, allowed)).toBe(ok);
  });

  it("answers only loopback names without ASSUMEPROBE_ALLOWED_HOSTS", () => {
    expect(allowedHostList(undefined)).toEqual([]);
    expect(hostAllowed(host("dash.example.com"), [])).toBe(false);
  });
});

describe("originMatches", () => {
  const local = host("127.0.0.1:3302");
  it.each([
    ["http://127.0.0.1:3302", true],
    ["HTTP://127.0.0.1:3302", true],
    ["https://127.0.0.1:3302", true],
    ["http://127.0.0.1:3303", false],
    ["http://127.0.0.1", false],
    ["http://localhost:3302", false],
    ["null", false],
    ["", false],
    ["http://evil.test", false],
    ["http://127.0.0.1:3302/", false],
    ["http://127.0.0.1:3302/path", false],
    ["http://user@127.0.0.1:3302", false],
    ["file://", false],
    ["chrome-extension://abc", false],
  ])("Origin %j against Host 127.0.0.1:3302 → %s", (origin, ok) => {
    expect(originMatches(origin, local)).toBe(ok);
  });

  it("reads a Host without a port as the origin scheme's default port", () => {
    expect(originMatches("https://dash.example.com", host("dash.example.com"))).toBe(true);
    expect(originMatches("https://dash.example.com:443", host("dash.example.com"))).toBe(true);
    expect(originMatches("http://dash.example.com", host("dash.example.com:80"))).toBe(true);
    expect(originMatches("https://dash.example.com", host("dash.example.com:80"))).toBe(false);
    expect(originMatches("http://[::1]:3302", host("[::1]:3302"))).toBe(true);
    expect(originMatches("http://localhost.:3302", host("localhost:3302"))).toBe(true);
  });
});

describe("isLoopbackAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["0.0.0.0", false],
    ["::", false],
    ["10.0.0.5", false],
    ["fe80::1", false],
    ["::ffff:10.0.0.1", false],
  ])("%s → %s", (address, ok) => expect(isLoopbackAddress(address)).toBe(ok));
});
