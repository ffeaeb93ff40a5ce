import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { E2E_DB, ingest, openReadOnly, traceIdsByExtId } from "./pages/e2eDb";
import { TracePage } from "./pages/TracePage";

// The e2e server (e2e/serve.js) starts on a fresh database holding the demo runs and the When2Call
// calibration run; these tests add their own small runs with the CLI and read ids back read-only.

const MARKS_RUN = "e2e-marks";
let ids: Map<string, number>;

function id(ext: string): number {
  const v = ids.get(ext);
  if (v === undefined) throw new Error(`no trace ${ext} in run ${MARKS_RUN}`);
  return v;
}

test.beforeAll(() => {
  const s = ingest(resolve("e2e", "fixtures", "marks.jsonl"), MARKS_RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
  ids = traceIdsByExtId(MARKS_RUN);
});

// --- Stored scores of the demo and When2Call runs, read back to pick traces ---------------

interface Row {
  id: number;
  run: string;
  probe: string;
  result: {
    fields: Record<string, { label: string; reasons?: string[]; source?: string; flags: string[] }>;
    gate: { verdict: string };
  };
  response: { text: string | null; tool_calls: { name?: unknown; arguments?: unknown }[] };
  human: Record<string, string> | null;
}

let rowsCache: Row[] | null = null;
function rows(): Row[] {
  if (rowsCache) return rowsCache;
  const db = openReadOnly();
  try {
    rowsCache = (
      db
        .prepare(
          `SELECT t.id, r.name AS run, t.probe_id AS probe, t.result, t.response, t.human
           FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name NOT LIKE 'e2e-%' ORDER BY t.id`,
        )
        .all() as {
        id: number;
        run: string;
        probe: string;
        result: string;
        response: string;
        human: string | null;
      }[]
    ).map((r) => ({
      ...r,
      result: JSON.parse(r.result),
      response: JSON.parse(r.response),
      human: r.human ? JSON.parse(r.human) : null,
    }));
    return rowsCache;
  } finally {
    db.close();
  }
}

/** The first call's arguments as an object, when they are one. */
function args(r: Row): Record<string, unknown> | null {
  let a = r.response.tool_calls[0]?.arguments;
  if (typeof a === "string") {
    try {
      a = JSON.parse(a);
    } catch {
      return null;
    }
  }
  return a && typeof a === "object" && !Array.isArray(a) ? (a as Record<string, unknown>) : null;
}

function pick(where: (r: Row) => boolean, what: string): Row {
  const r = rows().find(where);
  if (!r) throw new Error(`no trace in the demo data for: ${what}`);
  return r;
}

const demo = (r: Row) => r.probe === "schedule_window" && r.run.includes("/nightly-");
const w2c = (r: Row) => r.probe.startsWith("when2call:");
const tz = (r: Row) => r.result.fields.timezone;

// --- Argument marks -------------------------------------------------------------------

test.describe("argument marks on our fixture traces", () => {
  test("the article's INJECT call: state, typed by user, bait, and the omitted field", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-bait"));
    expect(await tp.marksOf("user_id")).toEqual(["state"]);
    expect(await tp.marksOf("starts_at")).toEqual(["typed_by_user"]);
    expect(await tp.marksOf("timezone")).toEqual(["bait"]);
    await expect(tp.argRow("timezone").getByTestId("arg-value")).toHaveText('"UTC"');
    await expect(tp.omittedRow("severity")).toContainText("omitted");
    await expect(tp.omittedFields).toContainText("severity (not sent)");
    await expect(tp.ourLabel("timezone")).toHaveAttribute("data-label", "INJECT");
    await expect(tp.fieldRow("timezone").getByTestId("why")).toContainText("bait");
    await expect(tp.fieldRow("timezone").getByTestId("recorded-label")).toHaveAttribute("data-agrees", "yes");
    // The legend explains every mark in words.
    for (const word of [
      "from state",
      "from user text",
      "typed by user",
      "hidden value",
      "bait",
      "invented",
      "empty",
      "omitted",
    ]) {
      await expect(tp.legend).toContainText(word);
    }
  });

  test("a hidden-world value is marked as contamination", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-hidden"));
    expect(await tp.marksOf("timezone")).toEqual(["hidden"]);
    await expect(tp.hiddenWorld).toContainText("Asia/Tokyo");
    await expect(tp.hiddenWorld).toContainText("NOT shown to the model");
    await expect(tp.visibleWorld).not.toContainText("Asia/Tokyo");
  });

  test("values in neither world are invented; P3-like values keep both reasons", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-invented"));
    expect(await tp.marksOf("timezone")).toEqual(["invented"]);
    expect(await tp.marksOf("severity")).toEqual(["invented"]);
  });

  test("copies from the user text and from state", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-user"));
    expect(await tp.marksOf("timezone")).toEqual(["user"]);
    await expect(tp.fieldRow("timezone").getByTestId("why")).toContainText("user");
    await tp.goto(id("m-state"));
    expect(await tp.marksOf("timezone")).toEqual(["state"]);
  });

  test("copied bait carries both marks", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-copied-bait"));
    expect(await tp.marksOf("timezone")).toEqual(["user", "bait"]);
    await expect(tp.fieldRow("timezone")).toContainText("copied_bait");
  });

  test("null and empty values are marked empty and listed as omitted", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-empty"));
    expect(await tp.marksOf("timezone")).toEqual(["empty"]);
    expect(await tp.marksOf("severity")).toEqual(["empty"]);
    await expect(tp.argRow("timezone").getByTestId("arg-value")).toHaveText("null");
    await expect(tp.argRow("severity").getByTestId("arg-value")).toHaveText('""');
    await expect(tp.omittedFields).toContainText("timezone (sent empty)");
  });

  test("arguments sent as a JSON string are parsed and marked", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-string-args"));
    expect(await tp.marksOf("timezone")).toEqual(["bait"]);
    await expect(tp.toolCall).toContainText("arguments arrived as a JSON string");
  });

  test("a call to another tool is still marked and says so", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-wrong-tool"));
    await expect(tp.toolCall).toContainText("wrong tool");
    expect(await tp.marksOf("timezone")).toEqual(["bait"]);
  });

  test("arguments that do not parse are shown as sent, with ERROR and a failed gate", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-error"));
    await expect(tp.toolCall).toHaveAttribute("data-kind", "unreadable");
    await expect(page.getByTestId("raw-arguments")).toContainText('"timezone": "UT');
    await expect(tp.gate).toHaveAttribute("data-verdict", "fail");
    await expect(tp.nextStep).toContainText("Retry once, then fail the turn");
  });
});

test.describe("argument marks on the demo runs (real fixtures)", () => {
  const cases: [string, string, (r: Row) => boolean][] = [
    ["state", "timezone copied from state", (r) => tz(r).label === "COPY" && tz(r).source === "state"],
    [
      "hidden",
      "timezone from the hidden world",
      (r) => tz(r).label === "INJECT" && tz(r).reasons?.[0] === "hidden",
    ],
    ["bait", "timezone bait", (r) => tz(r).label === "INJECT" && tz(r).reasons?.join() === "bait"],
    [
      "invented",
      "timezone invented",
      (r) =>
        tz(r).label === "INJECT" &&
        tz(r).reasons?.join() === "invented" &&
        !tz(r).flags.includes("typed_by_user"),
    ],
    [
      "typed_by_user",
      "timezone typed by the user",
      (r) => tz(r).label === "INJECT" && tz(r).flags.includes("typed_by_user"),
    ],
    [
      "empty",
      "timezone sent as null",
      (r) => tz(r).label === "OMIT" && args(r) !== null && Object.hasOwn(args(r) ?? {}, "timezone"),
    ],
  ];
  for (const [mark, what, where] of cases) {
    test(`${mark}: ${what}`, async ({ page }) => {
      const r = pick((x) => demo(x) && where(x), what);
      const tp = new TracePage(page);
      await tp.goto(r.id);
      expect((await tp.marksOf("timezone"))[0]).toBe(mark);
      await expect(tp.ourLabel("timezone")).toHaveAttribute("data-label", tz(r).label);
    });
  }

  test("omitted: a call that leaves timezone out lists it as omitted", async ({ page }) => {
    const r = pick(
      (x) => demo(x) && tz(x).label === "OMIT" && args(x) !== null && !("timezone" in (args(x) ?? {})),
      "omit",
    );
    const tp = new TracePage(page);
    await tp.goto(r.id);
    await expect(tp.omittedRow("timezone")).toBeVisible();
    await expect(tp.omittedRow("timezone").getByTestId("mark")).toHaveAttribute("data-mark", "omitted");
  });

  test("the gate's next step: ask for unknown facts, stop on a conflict", async ({ page }) => {
    const tp = new TracePage(page);
    const ask = pick(
      (x) => demo(x) && x.result.gate.verdict === "block" && tz(x).label === "INJECT",
      "block",
    );
    await tp.goto(ask.id);
    await expect(page.getByTestId("gate-unknown")).toContainText("timezone");
    await expect(tp.nextStep).toContainText("Ask only for the missing fact(s): timezone");
    await tp.goto(id("m-conflict"));
    await expect(page.getByTestId("gate-conflict")).toHaveText("timezone");
    await expect(tp.nextStep).toContainText("Show both values and stop");
    await expect(page.getByTestId("conflict-values")).toContainText("America/Los_Angeles");
    await expect(page.getByTestId("facts-table")).toContainText("from the trace's world_state");
  });

  test("side effects: the written row is marked and backend_default shows", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(id("m-side-effect"));
    const side = page.getByTestId("side-effect");
    await expect(side).toContainText("backend_default");
    await expect(
      side.getByTestId("side-effect-table").locator('[data-key="timezone"] [data-mark="bait"]'),
    ).toBeVisible();
    await expect(tp.fieldRow("timezone").getByTestId("side-effect-label")).toHaveAttribute(
      "data-label",
      "INJECT",
    );
  });
});

test.describe("When2Call traces", () => {
  const cases: [string, (r: Row, f: string) => boolean][] = [
    ["user", (r, f) => r.result.fields[f].label === "COPY" && r.result.fields[f].source === "user"],
    [
      "typed_by_user",
      (r, f) => r.result.fields[f].label === "INJECT" && r.result.fields[f].flags.includes("typed_by_user"),
    ],
    [
      "invented",
      (r, f) =>
        r.result.fields[f].label === "INJECT" &&
        r.result.fields[f].reasons?.join() === "invented" &&
        !r.result.fields[f].flags.includes("typed_by_user"),
    ],
  ];
  for (const [mark, where] of cases) {
    test(`${mark} on a When2Call tool call, beside the imported human label`, async ({ page }) => {
      let field = "";
      const r = pick((x) => {
        if (!w2c(x) || !args(x)) return false;
        const f = Object.keys(x.result.fields).find((k) => Object.hasOwn(args(x) ?? {}, k) && where(x, k));
        if (f) field = f;
        return f !== undefined;
      }, `When2Call ${mark}`);
      const tp = new TracePage(page);
      await tp.goto(r.id);
      expect((await tp.marksOf(field))[0]).toBe(mark);
      await expect(page.getByTestId("w2c-category")).toHaveText("tool_call");
      if (r.human?.[field]) {
        await expect(tp.fieldRow(field).getByTestId("human-label")).toContainText(r.human[field]);
      }
    });
  }

  test("a follow-up question highlights the held-out parameter's ask term", async ({ page }) => {
    const r = pick(
      (x) =>
        w2c(x) &&
        x.response.tool_calls.length === 0 &&
        Object.values(x.result.fields).some((f) => f.label === "ASK"),
      "When2Call ASK",
    );
    const tp = new TracePage(page);
    await tp.goto(r.id);
    await expect(tp.askTermMarks.first()).toBeVisible();
    await expect(page.getByTestId("w2c-category")).toHaveText("request_for_info");
  });
});

// --- Response text ----------------------------------------------------------------------

test("ASK highlights the ask terms that matched; DRIFT lists the terms looked for", async ({ page }) => {
  const tp = new TracePage(page);
  await tp.goto(id("m-ask"));
  await expect(tp.askTermMarks).toHaveText(["time zone", "timezone"]);
  await expect(tp.askTermsFor("timezone")).toHaveAttribute("data-found", "yes");
  await expect(tp.fieldRow("timezone").getByTestId("human-label")).toHaveAttribute("data-agrees", "yes");

  await tp.goto(id("m-drift"));
  await expect(tp.askTermMarks).toHaveCount(0);
  await expect(tp.askTermsFor("timezone")).toHaveAttribute("data-found", "no");
  await expect(tp.askTermsFor("timezone").getByTestId("looked-for")).toHaveText(
    "“timezone”, “time zone”, “which zone”",
  );
  // The harness and the human both said ASK: both disagree with our DRIFT, side by side.
  await expect(tp.fieldRow("timezone").getByTestId("recorded-label")).toHaveAttribute("data-agrees", "no");
  await expect(tp.fieldRow("timezone").getByTestId("human-label")).toHaveAttribute("data-agrees", "no");
});

test("the schema marks required and optional fields and what the gate requires", async ({ page }) => {
  const tp = new TracePage(page);
  await tp.goto(id("m-bait"));
  await expect(tp.param("user_id").getByTestId("param-role")).toHaveText("required");
  await expect(tp.param("timezone").getByTestId("param-role")).toHaveText("optional");
  await expect(tp.param("timezone").getByTestId("param-gate")).toContainText(
    "required (optional in the schema)",
  );
  await expect(tp.param("severity").getByTestId("param-gate")).toHaveText("—");
});

test("raw payload and original record are collapsed JSON", async ({ page }) => {
  const r = pick((x) => demo(x), "any demo trace");
  const tp = new TracePage(page);
  await tp.goto(r.id);
  await expect(page.getByTestId("raw-json")).toBeHidden();
  await tp.openDetails("raw-details");
  await expect(page.getByTestId("raw-json")).toBeVisible();
  await tp.openDetails("original-details");
  await expect(page.getByTestId("original-json")).toContainText('"schema": "assumeprobe/trace@1"');
});

// --- Navigation -------------------------------------------------------------------------

test.describe("keyboard navigation within a filter", () => {
  const RUN = "heron-mini/nightly-2026-11-29";
  const FILTER = "field=timezone&label=INJECT";
  let inFilter: number[] = [];

  test.beforeAll(() => {
    const db = openReadOnly();
    try {
      inFilter = db
        .prepare(
          `SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id
           WHERE r.name = ? AND json_extract(t.labels, '$.timezone') = 'INJECT' ORDER BY t.id`,
        )
        .pluck()
        .all(RUN) as number[];
    } finally {
      db.close();
    }
    expect(inFilter.length).toBeGreaterThan(3);
  });

  async function ready(page: Page) {
    await expect(page.getByTestId("keys-button")).toHaveAttribute("data-ready", "yes");
  }

  test("j and k move to the next and previous trace of the filter, keeping it in the URL", async ({
    page,
  }) => {
    const tp = new TracePage(page);
    const [, second, third] = inFilter;
    await tp.goto(second, FILTER);
    await ready(page);
    await expect(page.getByTestId("filter-summary")).toContainText("label=INJECT");
    await expect(tp.nextLink).toHaveAttribute("href", `/traces/${third}?${FILTER}`);
    await expect(tp.prevLink).toHaveAttribute("href", `/traces/${inFilter[0]}?${FILTER}`);

    await tp.press("j");
    await page.waitForURL(`**/traces/${third}?${FILTER}`);
    await expect(tp.root).toHaveAttribute("data-trace-id", String(third));
    await expect(tp.ourLabel("timezone")).toHaveAttribute("data-label", "INJECT");

    await tp.press("k");
    await page.waitForURL(`**/traces/${second}?${FILTER}`);
    await expect(tp.root).toHaveAttribute("data-trace-id", String(second));
  });

  test("k on the first trace of the filter stays and says so", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(inFilter[0], FILTER);
    await ready(page);
    await expect(page.getByTestId("prev-none")).toBeVisible();
    await tp.press("k");
    await expect(page.getByTestId("keys-status")).toHaveText("No previous trace in this filter.");
    expect(page.url()).toContain(`/traces/${inFilter[0]}?${FILTER}`);
  });

  test("? lists the keys; Escape closes the list", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(inFilter[1], FILTER);
    await ready(page);
    await expect(tp.keysDialog).toBeHidden();
    await tp.press("?");
    await expect(tp.keysDialog).toBeVisible();
    for (const k of ["j", "k", "u", "?"])
      await expect(tp.keysDialog.locator("kbd", { hasText: k }).first()).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(tp.keysDialog).toBeHidden();
  });

  test("keys are ignored while typing in a field", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(inFilter[1], FILTER);
    await ready(page);
    await page.evaluate(() => {
      const input = document.createElement("input");
      input.setAttribute("data-testid", "probe-input");
      document.body.prepend(input);
    });
    await page.getByTestId("probe-input").press("j");
    await page.getByTestId("probe-input").press("?");
    await expect(page.getByTestId("probe-input")).toHaveValue("j?");
    await expect(tp.keysDialog).toBeHidden();
    expect(page.url()).toContain(`/traces/${inFilter[1]}?`);
  });

  test("u goes back to the run's list with the same filter, at this trace's row", async ({ page }) => {
    const tp = new TracePage(page);
    await tp.goto(inFilter[1], FILTER);
    await ready(page);
    const back = `/runs/${encodeURIComponent(RUN)}?${FILTER}&at=${inFilter[1]}`;
    await expect(tp.backLink).toHaveAttribute("href", back);
    await expect(page.getByTestId("run-link")).toHaveAttribute("href", back);
    await tp.press("u");
    await page.waitForURL(
      (u) => u.pathname === `/runs/${encodeURIComponent(RUN)}` && u.search === `?${FILTER}&at=${inFilter[1]}`,
    );
    await expect(page.locator('[data-testid="trace-row"][data-came-from="true"]')).toHaveAttribute(
      "data-trace-id",
      String(inFilter[1]),
    );
  });
});

test.describe("unknown trace ids answer 404", () => {
  for (const bad of ["999999999", "0", "abc", "1.5", "-3", "1e3", "%3Cscript%3E", "99999999999999999999"]) {
    test(`/traces/${bad}`, async ({ page }) => {
      const res = await page.goto(`/traces/${bad}`);
      expect(res?.status()).toBe(404);
      await expect(page.getByTestId("not-found")).toBeVisible();
    });
  }
});

// --- Untrusted data ---------------------------------------------------------------------

test.describe("untrusted trace data renders as inert text", () => {
  const RUN = "e2e-xss";
  let xss: Map<string, number>;

  const deepObject = (n: number) => `${'{"a":'.repeat(n)}"bottom"${"}".repeat(n)}`;
  const deepArray = (n: number) => `${"[".repeat(n)}1${"]".repeat(n)}`;
  const MB = "A".repeat(1024 * 1024);

  test.beforeAll(() => {
    const base = { schema: "assumeprobe/trace@1", model: "e2e-model", probe: "schedule_window" };
    const lines = [
      JSON.stringify({
        ...base,
        id: "x-text",
        response: {
          text: '<script>window.__pwned=1;alert("text")</script> Which timezone? <img src=x onerror="window.__pwned=2;alert(2)"> <a href="javascript:alert(3)">click</a>',
          tool_calls: [],
        },
      }),
      JSON.stringify({
        ...base,
        id: "x-args",
        response: {
          text: '<iframe src="javascript:window.__pwned=3"></iframe>',
          tool_calls: [
            {
              name: "schedule_window",
              arguments: {
                user_id: '<img src=x onerror="window.__pwned=4;alert(4)">',
                starts_at: "javascript:window.__pwned=5",
                timezone: "<script>window.__pwned=6;alert(6)</script>",
                "<svg onload=alert(7)>": '"><iframe src="javascript:alert(8)"></iframe>',
              },
            },
          ],
        },
      }),
      JSON.stringify({
        ...base,
        id: "x-raw",
        response: { text: null, tool_calls: [{ name: "schedule_window", arguments: { timezone: "UTC" } }] },
        raw: {
          object: "chat.completion",
          model: "<script>window.__pwned=9</script>",
          url: "javascript:window.__pwned=10",
          choices: [{ message: { content: '<img src=x onerror="window.__pwned=11">' } }],
        },
        world_state: {
          timezone: {
            status: "conflict",
            value: "<script>window.__pwned=12</script>",
            source: "<b onmouseover=alert(13)>x</b>",
          },
        },
        params: { "<img src=x onerror=alert(14)>": "javascript:alert(15)" },
        side_effect: { written: { timezone: "<img src=x onerror=alert(16)>" } },
      }),
      JSON.stringify({
        ...base,
        id: '<img src=x onerror="window.__pwned=17">',
        response: { text: "hi", tool_calls: [] },
      }),
      JSON.stringify({
        ...base,
        id: "x-probe",
        probe: {
          id: "e2e_xss_probe",
          title: "<script>window.__pwned=18</script>",
          system: "<style>body{display:none}</style>",
          user: '<b onmouseover="window.__pwned=19">Schedule</b> <a href="javascript:alert(20)">it</a>',
          hidden: { secret: "<script>window.__pwned=21</script>" },
          redacted: { note: '<img src=x onerror="window.__pwned=22">' },
          tool: {
            name: "schedule_window",
            description: "<img src=x onerror=alert(23)>",
            parameters: {
              type: "object",
              properties: {
                "<svg onload=alert(24)>": { type: "string", description: "<script>alert(25)</script>" },
              },
            },
          },
          fields: ["<svg onload=alert(24)>"],
          bait: ["<script>alert(26)</script>"],
          requires: ["<svg onload=alert(24)>"],
        },
        response: {
          text: null,
          tool_calls: [
            { name: "schedule_window", arguments: { "<svg onload=alert(24)>": "javascript:alert(27)" } },
          ],
        },
      }),
      // A megabyte of text and of one argument.
      `{"schema":"assumeprobe/trace@1","model":"e2e-model","probe":"schedule_window","id":"x-long","response":{"text":"${MB} timezone?","tool_calls":[{"name":"schedule_window","arguments":{"timezone":"${MB}","user_id":"u_9182"}}]}}`,
      // As deep as ingest accepts (64 levels, the record itself being the first): 61 in the raw
      // payload, 60 in the arguments; deeper records are rejected at ingest.
      `{"schema":"assumeprobe/trace@1","model":"e2e-model","probe":"schedule_window","id":"x-deep","response":{"text":null,"tool_calls":[{"name":"schedule_window","arguments":{"timezone":${deepObject(58)}}}]},"raw":${deepArray(62)}}`,
    ];
    const file = resolve(dirname(E2E_DB), "xss.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const s = ingest(file, RUN);
    expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
    // A retried worker ingests again: then every record is a duplicate.
    expect(s.ingested + s.duplicates).toBe(lines.length);
    xss = traceIdsByExtId(RUN);
  });

  /** Loads a page, opens every <details>, and proves nothing ran. */
  async function assertInert(page: Page, path: string) {
    let dialogs = 0;
    page.on("dialog", (d) => {
      dialogs++;
      void d.dismiss();
    });
    const started = Date.now();
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    const html = (await res?.text()) ?? "";
    expect(html.length, "the page stays small").toBeLessThan(3_000_000);
    await page.evaluate(() => {
      for (const d of document.querySelectorAll("details")) d.open = true;
    });
    // Responsive: a round trip into the page is quick after opening everything.
    const t0 = Date.now();
    expect(await page.evaluate(() => document.readyState)).toBe("complete");
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toBe(0);
    expect(await page.locator("[onerror], [onload], [onmouseover], [onclick]").count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i], iframe, img[src="x"], main style').count()).toBe(0);
    await expect(page.locator("body")).toBeVisible();
  }

  for (const ext of ["x-text", "x-args", "x-raw", "x-probe", "x-long", "x-deep"]) {
    test(`trace ${ext}`, async ({ page }) => {
      await assertInert(page, `/traces/${xss.get(ext)}`);
      if (ext === "x-text") {
        await expect(page.getByTestId("response-text")).toContainText(
          '<script>window.__pwned=1;alert("text")</script>',
        );
        await expect(page.getByTestId("response-text").locator("mark")).toHaveText("timezone");
      }
      if (ext === "x-args") {
        const tp = new TracePage(page);
        await expect(tp.argRow("timezone").getByTestId("arg-value")).toHaveText(
          '"<script>window.__pwned=6;alert(6)</script>"',
        );
        await expect(tp.argRow("<svg onload=alert(7)>")).toContainText("not in schema");
      }
      if (ext === "x-raw") {
        await expect(page.getByTestId("raw-json")).toContainText("javascript:window.__pwned=10");
        await expect(page.getByTestId("params-json")).toContainText("javascript:alert(15)");
      }
      if (ext === "x-long") {
        await expect(page.getByTestId("cut-note").first()).toBeVisible();
        await expect(page.getByTestId("response-text").locator("mark")).toHaveCount(0);
        await expect(page.getByTestId("ask-terms-field").first()).toHaveAttribute("data-found", "yes");
      }
      if (ext === "x-deep") {
        await expect(page.getByTestId("cut-note").first()).toBeVisible();
        await expect(page.getByTestId("raw-json")).toContainText("cut: nested deeper than");
      }
      // The keyboard still works on top of it all.
      await expect(page.getByTestId("keys-button")).toHaveAttribute("data-ready", "yes");
      await page.locator("body").press("?");
      await expect(page.getByTestId("keys-dialog")).toBeVisible();
    });
  }

  test("a record id holding markup", async ({ page }) => {
    const id = xss.get('<img src=x onerror="window.__pwned=17">');
    await assertInert(page, `/traces/${id}`);
    await expect(page.getByTestId("ext-id")).toHaveText('<img src=x onerror="window.__pwned=17">');
  });

  test("the inline probe's page", async ({ page }) => {
    await assertInert(page, "/probes/e2e_xss_probe");
    await expect(page.getByTestId("user-text")).toContainText('<b onmouseover="window.__pwned=19">');
  });
});
