import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { E2E_DB, ingest } from "./pages/e2eDb";
import { shootFitting } from "./pages/shots";

// Agreement between reviewers on /agreement from blind reviews stored here: 50 timezone fields of a
// run of its own, labelled blind by ann and bob as in Wikipedia's Cohen's kappa example (yes/yes
// 20, yes/no 5, no/yes 10, no/no 15: kappa 0.4), a third reviewer, cy, on the first ten, and the
// last 14 fields in a round of their own.

const RUN = "e2e-between";
const ROUND = "e2e-between-round";
const TABLE: [string, string, number][] = [
  ["ASK", "ASK", 20],
  ["ASK", "DRIFT", 5],
  ["DRIFT", "ASK", 10],
  ["DRIFT", "DRIFT", 15],
];

test.beforeAll(() => {
  const file = join(dirname(E2E_DB), "between.jsonl");
  mkdirSync(dirname(file), { recursive: true });
  const lines = Array.from({ length: 50 }, (_, i) =>
    JSON.stringify({ id: `b${i}`, model: "m", response: { text: "Which timezone should I use?" } }),
  );
  writeFileSync(file, `${lines.join("\n")}\n`);
  const s = ingest(file, RUN);
  expect(s.rejected, JSON.stringify(s.errors)).toBe(0);
});

function seedBlind(): void {
  const db = new Database(E2E_DB);
  try {
    db.pragma("busy_timeout = 10000");
    const ids = db
      .prepare("SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? ORDER BY t.id")
      .pluck()
      .all(RUN) as number[];
    const round = Number(
      db
        .prepare(
          "INSERT INTO review_rounds (name, scope_kind, scope_value, created_by) VALUES (?, 'run', ?, 'e2e')",
        )
        .run(ROUND, RUN).lastInsertRowid,
    );
    const add = db.prepare(
      "INSERT INTO reviews (trace_id, field, label, reviewer, kind, round_id) VALUES (?, 'timezone', ?, ?, 'blind', ?)",
    );
    db.transaction(() => {
      let i = 0;
      for (const [a, b, n] of TABLE)
        for (let k = 0; k < n; k++, i++) {
          const r = i >= 36 ? round : null;
          add.run(ids[i], a, "ann", r);
          add.run(ids[i], b, "bob", r);
          if (i < 10) add.run(ids[i], "ASK", "cy", r);
        }
    })();
  } finally {
    db.close();
  }
}

test("between reviewers: kappa per pair with its count and interval, alpha, per reviewer, label pairs", async ({
  page,
}) => {
  await page.goto(`/agreement?run=${RUN}`);
  await expect(page.getByTestId("between-reviewers-empty")).toBeVisible();
  await shootFitting(page, "agreement-between-empty");

  seedBlind();
  await page.goto(`/agreement?run=${RUN}`);
  const section = page.getByTestId("between-reviewers");
  const pair = (a: string, b: string) =>
    section.locator(`[data-testid="reviewer-pair"][data-a="${a}"][data-b="${b}"]`);
  await expect(pair("ann", "bob")).toHaveAttribute("data-n", "50");
  await expect(pair("ann", "bob").locator("[data-kappa]")).toHaveAttribute("data-kappa", "0.400");
  await expect(pair("ann", "bob")).toContainText("70%");
  await expect(pair("ann", "bob")).toContainText(/0\.\d\d–0\.\d\d/);
  await expect(pair("ann", "cy")).toHaveAttribute("data-n", "10");
  await expect(section.getByTestId("alpha")).toContainText(
    "over 50 fields with two labels or more, 3 reviewers",
  );
  await expect(section.getByTestId("reviewer")).toHaveCount(3);
  const top = section.getByTestId("label-pair").first();
  await expect(top).toHaveAttribute("data-a", "ASK");
  await expect(top).toHaveAttribute("data-b", "DRIFT");
  // 15 between ann and bob, none with cy (the first ten fields are ASK/ASK for all three).
  await expect(top).toHaveAttribute("data-n", "15");
  await section.locator('[data-testid="pair-confusion"][data-a="ann"][data-b="bob"] summary').click();
  await expect(
    section.locator('[data-testid="pair-confusion"][data-a="ann"][data-b="bob"] table'),
  ).toBeVisible();
  await shootFitting(page, "agreement-between");

  // One round: its 14 fields (the last ones, all DRIFT/DRIFT).
  await page.goto(`/agreement?round=${ROUND}`);
  await expect(pair("ann", "bob")).toHaveAttribute("data-n", "14");
  await expect(pair("ann", "bob").locator("[data-kappa]")).toHaveAttribute("data-kappa", "none");
  await expect(page.locator('select[name="round"]')).toHaveValue(ROUND);
});
