import type Database from "better-sqlite3";

/** A page of the dashboard worth looking at, by a short name for its screenshot. */
export interface PageToVisit {
  name: string;
  path: string;
}

const enc = encodeURIComponent;

/**
 * Every page of the dashboard over the demo data: the overview, a run (and a deep page of the
 * biggest one), a trace of each demo payload shape (chat completions, Responses, Anthropic, a
 * fenced call, When2Call), compare with and without parameters, probes, a probe, the fixture
 * sets (the seed, a set with its re-runs and flips, its failing fixtures, one fixture), upload and
 * a 404. Read from the database the server serves, so ids are real.
 */
export function everyPage(db: Database.Database): PageToVisit[] {
  const one = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as T | undefined;
  const pages: PageToVisit[] = [{ name: "overview", path: "/" }];
  const runs = db.prepare("SELECT name, model FROM runs ORDER BY id").all() as {
    name: string;
    model: string | null;
  }[];
  const latest = new Map<string, string>();
  for (const r of runs) latest.set(r.model ?? r.name, r.name);
  const names = [...latest.values()];
  if (names[0]) pages.push({ name: "run", path: `/runs/${enc(names.at(-1) as string)}` });
  const big = one<{ name: string; last: number }>(
    "SELECT r.name, (SELECT id FROM traces WHERE run_id = r.id ORDER BY id LIMIT 1 OFFSET 99) AS last FROM runs r ORDER BY trace_count DESC LIMIT 1",
  );
  if (big?.last) pages.push({ name: "run-page-3", path: `/runs/${enc(big.name)}?after=${big.last}` });
  for (const name of names) {
    const t = one<{ id: number }>(
      "SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? ORDER BY t.id LIMIT 1",
      name,
    );
    const slug = name.split("/")[0].replace(/[^a-z0-9]+/gi, "-");
    if (t) pages.push({ name: `trace-${slug}`, path: `/traces/${t.id}` });
  }
  const fenced = one<{ id: number }>("SELECT id FROM traces WHERE result LIKE '%\"fenced\"%' LIMIT 1");
  if (fenced) pages.push({ name: "trace-fenced", path: `/traces/${fenced.id}` });
  if (runs.length >= 2) {
    const [a, b] = runs.slice(-2).map((r) => r.name);
    const same = runs.filter((r) => r.model === runs.at(-1)?.model).map((r) => r.name);
    const [pa, pb] = same.length >= 2 ? same.slice(-2) : [a, b];
    pages.push({ name: "compare", path: `/compare?${new URLSearchParams({ a: pa, b: pb })}` });
  }
  pages.push({ name: "compare-form", path: "/compare" });
  pages.push({ name: "probes", path: "/probes" });
  const probe = one<{ id: string }>("SELECT id FROM probes ORDER BY builtin DESC, id LIMIT 1");
  if (probe) pages.push({ name: "probe", path: `/probes/${enc(probe.id)}` });
  if (probe) pages.push({ name: "probe-tune", path: `/probes/${enc(probe.id)}/tune` });
  pages.push({ name: "lexicon", path: "/lexicon" });
  const w2c = one<{ id: string }>("SELECT id FROM probes WHERE id LIKE 'when2call:%' ORDER BY id LIMIT 1");
  if (w2c) pages.push({ name: "probe-when2call", path: `/probes/${enc(w2c.id)}` });
  pages.push({ name: "fixtures", path: "/fixtures" });
  pages.push({ name: "fixture-set-seed", path: "/fixtures/seed" });
  // The set of one's own with the most re-runs (the demo's has a flip), and its failing fixture.
  const set = one<{ id: number; name: string }>(
    `SELECT s.id, s.name FROM fixture_sets s WHERE s.builtin = 0
     ORDER BY (SELECT count(*) FROM fixture_runs r WHERE r.set_id = s.id) DESC, s.id LIMIT 1`,
  );
  if (set) {
    pages.push({ name: "fixture-set", path: `/fixtures/${enc(set.name)}` });
    pages.push({ name: "fixture-set-failing", path: `/fixtures/${enc(set.name)}?show=failing` });
    const f = one<{ identity: string }>(
      `SELECT f.identity FROM fixtures f LEFT JOIN fixture_results x ON x.fixture_id = f.id
         AND x.run_id = (SELECT max(id) FROM fixture_runs WHERE set_id = ?)
       WHERE f.set_id = ? ORDER BY coalesce(x.passed, 1), f.id LIMIT 1`,
      set.id,
      set.id,
    );
    if (f) pages.push({ name: "fixture", path: `/fixtures/${enc(set.name)}/${f.identity}` });
  }
  pages.push({ name: "upload", path: "/upload" });
  pages.push({ name: "ingests", path: "/ingests" });
  const ingest = one<{ id: number }>("SELECT id FROM ingest_batches ORDER BY id DESC LIMIT 1");
  if (ingest) pages.push({ name: "ingest", path: `/ingests/${ingest.id}` });
  pages.push({ name: "review-queue", path: "/review" });
  pages.push({ name: "review-rounds", path: "/review/rounds" });
  pages.push({ name: "review-adjudicate", path: "/review/adjudicate" });
  pages.push({ name: "agreement", path: "/agreement" });
  pages.push({ name: "which-run", path: "/runs" });
  pages.push({ name: "not-found", path: "/runs/no-such-run" });
  return pages;
}
