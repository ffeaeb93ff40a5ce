import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { queryAll, queryOne } from "./pages/e2eDb";
import { shoot } from "./pages/shots";

// A blind round end to end on the demo data: the lead makes a round of two participants, ana and
// bo label the same field differently without seeing the scorer or each other, the field goes to
// adjudication, the lead settles it, and the round's settled field goes to a fixture set.

const PLOVER = "plover-lite-2/nightly-2026-11-25";
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3217}`;

async function as(browser: Browser, name: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: BASE, viewport: { width: 1440, height: 900 } });
  await ctx.addCookies([{ name: "assumeprobe_reviewer", value: encodeURIComponent(name), url: BASE }]);
  return ctx.newPage();
}

/** The page's text with the marked label buttons cut out. */
const outsideButtons = (html: string) =>
  html.replace(/<button[^>]*data-blind-label-button[^>]*>[\s\S]*?<\/button>/g, "");

const names = (html: string, label: string) => new RegExp(`\\b${label}\\b`).test(html);

async function fetchBoth(req: APIRequestContext, path: string) {
  const html = await (await req.get(path)).text();
  const rsc = await (await req.get(path, { headers: { RSC: "1" } })).text();
  return { html, rsc };
}

test("a blind round: two reviewers disagree, the field is adjudicated and goes to a fixture set", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const lead = await as(browser, "lead");
  await lead.goto("/review");
  await lead.getByTestId("rounds-link").click();
  await expect(lead.getByTestId("rounds-page")).toBeVisible();
  // Another spec may have made a round already (agreement between reviewers makes one of its own).
  const rounds = queryOne<{ n: number }>("SELECT count(*) AS n FROM review_rounds")?.n ?? 0;
  if (rounds === 0) {
    await expect(lead.getByTestId("rounds-empty")).toBeVisible();
    await shoot(lead, "blind-rounds-empty");
  } else await expect(lead.getByTestId("rounds-empty")).toHaveCount(0);
  await lead.getByTestId("round-name").fill("pilot");
  await lead.getByTestId("round-scope-value").fill(PLOVER);
  await lead.getByTestId("round-participants").fill("ana, bo");
  await lead.getByTestId("round-create").click();
  await expect(lead).toHaveURL(/\/review\/rounds\/\d+$/);
  const roundPath = new URL(lead.url()).pathname;
  // The lead is no participant: the page says so and hands out nothing.
  await expect(lead.getByTestId("blind-page")).toHaveAttribute("data-state", "refused");
  await expect(lead.getByTestId("self-named")).toBeVisible();

  // ana gets a field: the world and the response, nothing that names the scorer's label.
  const ana = await as(browser, "ana");
  // Every server-component answer the blind page's browser receives (prefetches of the header's
  // links included), read until ana saves.
  const flights: Promise<string>[] = [];
  let saving = false;
  ana.on("response", (r) => {
    if (!saving && (r.headers()["content-type"] ?? "").includes("text/x-component"))
      flights.push(r.text().catch(() => ""));
  });
  await ana.goto(roundPath);
  await expect(ana.getByTestId("blind-page")).toHaveAttribute("data-state", "field");
  const traceId = Number(await ana.getByTestId("blind-page").getAttribute("data-trace-id"));
  const field = (await ana.getByTestId("blind-field").textContent()) as string;
  const labels = JSON.parse(
    (queryOne<{ labels: string }>("SELECT labels FROM traces WHERE id = ?", traceId) as { labels: string })
      .labels,
  ) as Record<string, string>;
  const ours = labels[field];
  expect(ours).toMatch(/^[A-Z]+$/);
  await expect(ana.locator("[data-blind-label-button]")).toHaveCount(6);
  const blind = await fetchBoth(ana.request, roundPath);
  // The same lease comes back: the same field.
  expect(blind.html).toContain(`data-trace-id="${traceId}"`);
  expect(names(outsideButtons(blind.html), ours)).toBe(false);
  expect(names(blind.rsc, ours)).toBe(false);
  // Positive control: the normal trace page names it (so the check above can see it).
  const normal = await fetchBoth(ana.request, `/traces/${traceId}`);
  expect(names(normal.html, ours)).toBe(true);
  expect(names(normal.rsc, ours)).toBe(true);
  // Nothing on the blind page prefetches: no link is a Next.js <Link> with prefetch (they are plain anchors).
  expect(await ana.locator("main a[data-prefetch], main a[rel=prefetch]").count()).toBe(0);

  // ana saves ASK with the keyboard; the action's answer names no label.
  // The action's answer is read as it passes (the page navigates right after it).
  const answers: string[] = [];
  await ana.route(`**${roundPath}`, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    const res = await route.fetch();
    answers.push(await res.text());
    await route.fulfill({ response: res });
  });
  await ana.waitForLoadState("networkidle");
  for (const f of await Promise.all(flights)) expect(names(f, ours)).toBe(false);
  saving = true;
  await ana.keyboard.press("1");
  await expect(ana.getByTestId("blind-page")).toHaveAttribute("data-state", "reveal");
  await expect(ana.getByTestId("reveal-ours")).toHaveText(ours);
  await expect(ana.getByTestId("reveal-state")).toHaveText("single");
  expect(answers).toHaveLength(1);
  expect(answers[0]).toContain('"ok":true');
  expect(names(answers[0], ours)).toBe(false);

  // bo gets the same field (fewer than two reviews), labels it DRIFT: disputed.
  const bo = await as(browser, "bo");
  await bo.goto(roundPath);
  await expect(bo.getByTestId("blind-page")).toHaveAttribute("data-state", "field");
  expect(Number(await bo.getByTestId("blind-page").getAttribute("data-trace-id"))).toBe(traceId);
  await shoot(bo, "blind-field");
  await bo.locator('[data-blind-label-button="DRIFT"]').click();
  await expect(bo.getByTestId("reveal-state")).toHaveText("disputed");
  await expect(bo.getByTestId("reveal-reviews")).toContainText("ana");
  await shoot(bo, "blind-reveal");

  // The lead adjudicates: sees both reviews, settles DRIFT.
  await lead.goto("/review/adjudicate");
  await expect(lead.getByTestId("adjudicate-page")).toHaveAttribute("data-state", "item");
  await expect(lead.getByTestId("reveal-reviews").locator("li")).toHaveCount(2);
  await shoot(lead, "blind-adjudicate");
  await lead.locator('[data-blind-label-button="DRIFT"]').click();
  await expect(lead.getByTestId("adjudicate-page")).toHaveAttribute("data-state", "empty");
  await shoot(lead, "blind-adjudicate-empty");
  const kinds = queryAll<{ kind: string; label: string; reviewer: string }>(
    "SELECT kind, label, reviewer FROM reviews WHERE trace_id = ? AND field = ? AND kind != 'review' ORDER BY id",
    traceId,
    field,
  );
  expect(kinds).toEqual([
    { kind: "blind", label: "ASK", reviewer: "ana" },
    { kind: "blind", label: "DRIFT", reviewer: "bo" },
    { kind: "adjudication", label: "DRIFT", reviewer: "lead" },
  ]);

  // The settled field goes to a set; nothing else of the round is settled.
  await lead.goto("/review/rounds");
  await lead.getByTestId("round-set-name").fill("pilot-settled");
  await lead.getByTestId("round-set-add").click();
  await expect(lead.getByTestId("round-set-result")).toContainText("1 added");
  await expect(lead.getByTestId("round-set-result")).toContainText("skipped 0 disputed, 0 single");
  expect(
    queryAll(
      "SELECT expected, settled FROM fixtures WHERE set_id = (SELECT id FROM fixture_sets WHERE name = ?)",
      "pilot-settled",
    ),
  ).toEqual([{ expected: "DRIFT", settled: "adjudicated" }]);
  await shoot(lead, "blind-rounds");
  const fixture = queryOne<{ identity: string }>(
    "SELECT identity FROM fixtures WHERE set_id = (SELECT id FROM fixture_sets WHERE name = ?)",
    "pilot-settled",
  ) as { identity: string };
  await lead.goto(`/fixtures/pilot-settled/${fixture.identity}`);
  await expect(lead.getByTestId("settled")).toHaveText("(adjudicated)");
});
