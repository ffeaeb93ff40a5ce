import { describe, expect, it } from "vitest";
import { requestProblem } from "./requestCheck";

const long = "a".repeat(201);

describe("requestProblem", () => {
  it.each([
    ["/runs/%F0%28%8C%28", "", /path is not valid percent-encoded UTF-8/],
    ["/runs/%E0%A4%A", "", /path is not valid/],
    ["/runs/%ZZ", "", /path is not valid/],
    ["/runs/x/export", "?q=%FF", /query string is not valid/],
    ["/runs/x", "?q=%EF%BF%BD", /query string is not valid/],
    ["/runs/x", `?q=${long}`, /search is at most 200/],
    ["/traces/1", `?q=${long}`, /search is at most 200/],
    ["/runs/x", "?label=ask", /label must be one of/],
    ["/runs/x", "?label=ASK&label=OMIT", /label is given 2 times/],
    ["/runs/x", "?after=abc", /after must be a trace id/],
    ["/runs/x", "?before=0", /before must be a trace id/],
    ["/runs/x/export", "?human=maybe", /human must be one of/],
    ["/runs", "?name=..&gate=shut", /gate must be one of/],
    ["/api/export", "", /run is missing/],
    ["/api/export", "?run=x&reason=nope", /reason must be one of/],
    ["/traces/7", "?flag=nope", /flag must be one of/],
    ["/probes", `?q=${long}`, /q is longer than 200/],
    ["/compare", `?a=${"r".repeat(1001)}`, /a is longer than 1000/],
    ["/", `?probe=${long}`, /probe is longer than 200/],
    ["/login", `?next=/${"x".repeat(2000)}`, /next is longer than 2000/],
  ])("%s%s is refused", (path, search, message) => {
    expect(requestProblem(path, search)).toMatch(message);
  });

  it.each([
    ["/runs/100%25", ""],
    ["/runs/%2541%2542/export", ""],
    ["/runs/heron-mini%2Fnightly", "?label=DRIFT&human=disagree&q=which+zone&after=40"],
    ["/runs", "?name=.."],
    // `/runs` alone asks which run (a page, not an error), whatever else the query holds.
    ["/runs", ""],
    ["/runs", "?name="],
    ["/runs", "?label=ASK"],
    ["/api/export", "?run=..&label=ASK"],
    ["/traces/12", "?field=*&human=reviewed"],
    ["/probes/when2call%3A12", "?version=2"],
    ["/compare", ""],
    ["/", "?sort=inject&model=m"],
    ["/runs/x", "?label=&q="],
    ["/somewhere/else", "?anything=%41"],
    // Ids that cannot be ids are unknown ids: the pages answer 404.
    ["/traces/abc", ""],
    ["/traces/0", ""],
    ["/probes/bad%20id", ""],
    ["/probes/schedule_window", "?version=0"],
  ])("%s%s passes", (path, search) => {
    expect(requestProblem(path, search)).toBeNull();
  });
});
