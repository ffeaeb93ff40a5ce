import { describe, expect, it } from "vitest";
import {
  type Failure,
  fatalMessage,
  isFatal,
  isRetryable,
  kindOfStatus,
  MAX_RETRIES,
  parseRetryAfter,
  retryDelayMs,
} from "./retry";

const headers = (h: Record<string, string>) => new Headers(h);
const fail = (over: Partial<Failure> = {}): Failure => ({ kind: "server", message: "500: boom", ...over });

describe("which failures are retried, which stop the run", () => {
  it.each([
    [401, "auth", false, true],
    [404, "not_found", false, true],
    [429, "rate_limited", true, false],
    [408, "timeout", true, false],
    [500, "server", true, false],
    [502, "server", true, false],
    [503, "server", true, false],
    [400, "rejected", false, false],
    [403, "rejected", false, false],
    [409, "rejected", false, false],
    [422, "rejected", false, false],
  ] as const)("%i is %s (retried: %s, stops the run: %s)", (status, kind, retried, fatal) => {
    expect(kindOfStatus(status)).toBe(kind);
    expect(isRetryable(kind)).toBe(retried);
    expect(isFatal(kind)).toBe(fatal);
  });

  it("retries timeouts and dropped connections; a refused connection stops the run", () => {
    expect([isRetryable("timeout"), isRetryable("dropped"), isFatal("refused")]).toEqual([true, true, true]);
    expect(isRetryable("unreadable")).toBe(false);
    expect(MAX_RETRIES).toBe(5);
  });
});

describe("retry-after", () => {
  const now = Date.parse("2026-11-29T10:00:00Z");
  it.each([
    [{ "retry-after": "3" }, 3000],
    [{ "retry-after": "0" }, 0],
    [{ "retry-after": "1.5" }, 1500],
    [{ "retry-after": "Sun, 29 Nov 2026 10:00:07 GMT" }, 7000],
    [{ "retry-after": "Sun, 29 Nov 2026 09:59:00 GMT" }, 0],
    [{ "retry-after-ms": "250", "retry-after": "9" }, 250],
    [{ "retry-after": "soon" }, undefined],
    [{ "retry-after": "" }, undefined],
    [{}, undefined],
  ])("%j waits %s ms", (h, ms) => {
    expect(parseRetryAfter(headers(h), now)).toBe(ms);
  });
  it("reads no headers as none", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("backoff", () => {
  it("doubles from 0.5 s to at most 8 s without jitter", () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => retryDelayMs(n, fail(), none))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });
  it("takes up to a quarter off at random, never more", () => {
    expect(retryDelayMs(1, fail(), () => 0.999999)).toBeCloseTo(375, 0);
    for (let i = 0; i < 1000; i++) {
      const d = retryDelayMs(3, fail());
      expect(d).toBeGreaterThan(1500);
      expect(d).toBeLessThanOrEqual(2000);
    }
    const spread = new Set(Array.from({ length: 50 }, () => retryDelayMs(2, fail())));
    expect(spread.size).toBeGreaterThan(40);
  });
  it("honours retry-after exactly, up to 60 s", () => {
    expect(retryDelayMs(1, fail({ retryAfterMs: 2500 }), () => 0.5)).toBe(2500);
    expect(retryDelayMs(4, fail({ retryAfterMs: 0 }))).toBe(0);
    expect(retryDelayMs(1, fail({ retryAfterMs: 3_600_000 }))).toBe(60_000);
  });
});

describe("messages that stop a run say what to fix", () => {
  const where = "http://127.0.0.1:8080/v1";
  it.each([
    ["auth", /refused the API key \(401\).*set OPENAI_API_KEY/],
    ["not_found", /answered 404 for model "qwen".*check --model.*usually \/v1/],
    ["refused", /no server answers at http:\/\/127\.0\.0\.1:8080\/v1.*start it, or check --base-url/],
  ] as const)("%s", (kind, re) => {
    expect(fatalMessage({ kind, message: "x" }, where, "qwen")).toMatch(re);
  });
});
