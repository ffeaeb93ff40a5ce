import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { identifier } from "./Breakable";

const html = (text: string) => renderToStaticMarkup(createElement(Fragment, null, identifier(text)));

describe("identifier", () => {
  it("breaks only after /, -, _ and :", () => {
    expect(html("when2call-calibration")).toBe("when2call-<wbr/>calibration");
    expect(html("plover-lite-2/nightly-2026-11-29")).toBe(
      "plover-<wbr/>lite-<wbr/>2/<wbr/>nightly-<wbr/>2026-<wbr/>11-<wbr/>29",
    );
    expect(html("when2call:live_multiple_10-4-2:08abb2e6")).toBe(
      "when2call:<wbr/>live_<wbr/>multiple_<wbr/>10-<wbr/>4-<wbr/>2:<wbr/>08abb2e6",
    );
    expect(html("timezone")).toBe("timezone");
    expect(html("qwen2.5-7b-instruct")).toBe("qwen2.5-<wbr/>7b-<wbr/>instruct");
  });

  it("adds no break after a trailing separator and keeps every character", () => {
    expect(html("a/")).toBe("a/");
    const s = "x".repeat(10) + "/".repeat(3);
    expect(html(s).replaceAll("<wbr/>", "")).toBe(s);
  });

  it("breaks a part longer than 48 characters every 48, so layout stays fast", () => {
    const long = "a".repeat(100);
    expect(html(long)).toBe(`${"a".repeat(48)}<wbr/>${"a".repeat(48)}<wbr/>aaaa`);
  });
});
