import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safeNext";

describe("safeNextPath", () => {
  it.each([
    ["/runs/a%2Fb?label=ASK#x", "/runs/a%2Fb?label=ASK#x"],
    ["/", "/"],
    ["/traces/12?token=secret&q=x", "/traces/12?q=x"],
    ["//evil.test/x", "/"],
    ["/\\evil.test", "/"],
    ["\\\\evil.test", "/"],
    ["https://evil.test/", "/"],
    ["http:/evil.test", "/"],
    ["javascript:alert(1)", "/"],
    ["evil.test", "/"],
    ["/%0a/evil.test", "/%0a/evil.test"],
    ["/\t/evil.test", "/"],
    ["/\n/evil.test", "/"],
    ["/login", "/"],
    ["/login?next=/x", "/"],
    ["/login/", "/"],
    ["", "/"],
    [undefined, "/"],
    ["/".repeat(3000), "/"],
  ])("%j → %j", (raw, want) => expect(safeNextPath(raw)).toBe(want));
});
