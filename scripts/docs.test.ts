import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../lib/root";

// The docs stay navigable (every relative link and anchor resolves, by GitHub's own slug rules),
// the front page stays one page, CONTRIBUTING.md's code map names every folder, and the import
// rules it states hold.

const root = projectRoot();
const CODE_ROOTS = ["app", "lib", "db", "bench", "scripts", "e2e"];

/** Files git tracks, and new ones it does not ignore, so a page or folder not yet committed counts. */
function projectFiles(...paths: string[]): string[] {
  const out = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...paths],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  return [...new Set(out.split("\n").filter(Boolean))].filter((f) => existsSync(join(root, f)));
}

const read = (file: string) => readFileSync(join(root, file), "utf8");

/**
 * The text with fenced code blocks and code spans blanked (newlines kept, so line numbers hold):
 * nothing in code is a link or a heading.
 */
function withoutCode(text: string): string {
  const lines = text.split("\n");
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (fence === null && open) {
      fence = open[1];
      lines[i] = "";
    } else if (fence !== null) {
      const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
      if (close.test(lines[i])) fence = null;
      lines[i] = "";
    }
  }
  // A code span opens with a run of backticks and closes at the next run of the same length.
  return lines.join("\n").replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => m.replace(/[^\n]/g, " "));
}

/** A heading's text as GitHub renders it before slugging: code, links and emphasis unwrapped. */
function headingText(raw: string): string {
  return raw
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/(\*\*|__|\*)(.+?)\1/g, "$2");
}

/** The anchors of a Markdown file's headings (ATX and setext), in order, as GitHub makes them. */
function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const raw = text.split("\n");
  const lines = withoutCode(text).split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === "" && raw[i] !== "") continue; // inside a code block
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(raw[i]);
    const setext = i > 0 && /^ {0,3}(=+|-+)\s*$/.test(raw[i]) && /^ {0,3}[^\s#>|*+-]/.test(lines[i - 1]);
    if (atx) anchors.add(slugger.slug(headingText(atx[1])));
    else if (setext) anchors.add(slugger.slug(headingText(raw[i - 1].trim())));
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/** Inline links and images, `[text](target "title")`, and reference definitions `[x]: target`. */
function linksOf(text: string): Link[] {
  const plain = withoutCode(text);
  const lineAt = (index: number) => plain.slice(0, index).split("\n").length;
  const links: Link[] = [];
  for (const m of plain.matchAll(/\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g))
    links.push({ line: lineAt(m.index), target: m[1].replace(/^<|>$/g, "") });
  for (const m of plain.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm))
    links.push({ line: lineAt(m.index), target: m[1] });
  return links;
}

/** What is wrong with one relative link of a Markdown file, or null when it resolves. */
function brokenLink(file: string, target: string, anchors: (file: string) => Set<string>): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return null; // another site
  const hash = target.indexOf("#");
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, "");
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const to = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path));
  if (to.startsWith("..")) return `${to} is outside the project`;
  if (!existsSync(join(root, to))) return `${to} does not exist`;
  if (anchor === null) return null;
  if (!to.endsWith(".md")) return `#${anchor}: only a Markdown file's anchors can be checked`;
  return anchors(to).has(anchor) ? null : `${to} has no heading whose anchor is #${anchor}`;
}

describe("Markdown links", () => {
  const pages = projectFiles("*.md").filter((f) => !f.startsWith("node_modules/"));
  const cache = new Map<string, Set<string>>();
  const anchors = (f: string) => {
    const known = cache.get(f) ?? anchorsOf(read(f));
    cache.set(f, known);
    return known;
  };

  it("covers the front page, CONTRIBUTING.md and the docs", () => {
    expect(pages).toEqual(expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/README.md"]));
  });

  it("every relative link points at a file that exists, and every anchor at one of its headings", () => {
    const broken: string[] = [];
    for (const page of pages)
      for (const { line, target } of linksOf(read(page))) {
        const why = brokenLink(page, target, anchors);
        if (why) broken.push(`${page}:${line}: (${target}) ${why}`);
      }
    expect(broken).toEqual([]);
  });

  it("reads anchors as GitHub makes them", () => {
    const text =
      "# A `code` title\n## Comparing: `/compare?a=RUN&b=RUN`\n## Twice\n## Twice\n```sh\n# not one\n```\n";
    expect([...anchorsOf(text)]).toEqual(["a-code-title", "comparing-comparearunbrun", "twice", "twice-1"]);
    expect(
      linksOf("[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n[g\nh](i.md#j)").map((l) => l.target),
    ).toEqual(["b.md", "i.md#j"]);
  });
});

describe("the front page", () => {
  const readme = read("README.md").split("\n");

  it("holds at most 250 lines", () => {
    expect(readme.length - (readme.at(-1) === "" ? 1 : 0)).toBeLessThanOrEqual(250);
  });

  it("starts with the two commands: set up and start, and every test", () => {
    const fence = readme.findIndex((l) => l.startsWith("```"));
    expect(fence).toBeGreaterThan(0);
    expect(fence).toBeLessThanOrEqual(3);
    expect(readme[fence + 1]).toMatch(/^npm ci && npm start\s+#/);
    expect(readme[fence + 2]).toMatch(/^npm test\s+#/);
  });
});

describe("CONTRIBUTING.md's code map", () => {
  it("gives every folder under app, lib, db, bench, scripts and e2e a line of its own", () => {
    const map = read("CONTRIBUTING.md");
    const folders = new Set<string>();
    for (const f of projectFiles(...CODE_ROOTS))
      for (let d = posix.dirname(f); d !== "."; d = posix.dirname(d)) folders.add(d);
    expect(folders.size).toBeGreaterThan(CODE_ROOTS.length);
    const named = new Set([...map.matchAll(/^- `([^`]+)`:/gm)].map((m) => m[1]));
    expect([...folders].filter((d) => !named.has(d)).sort()).toEqual([]);
  });
});

// --- the import rules CONTRIBUTING.md states ---

/** Every import of a source file: a project path (no extension) or `pkg:NAME`. */
function importsOf(file: string): string[] {
  const src = read(file);
  const re =
    /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|require\(\s*["']([^"']+)["']\s*\)/gm;
  return [...src.matchAll(re)].map((m) => {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (spec.startsWith("@/")) return posix.normalize(spec.slice(2));
    if (spec.startsWith(".")) return posix.normalize(posix.join(posix.dirname(file), spec));
    const parts = spec.split("/");
    return `pkg:${spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]}`;
  });
}

const under = (path: string, room: string) => path === room || path.startsWith(`${room}/`);
const UI_PACKAGES = ["pkg:react", "pkg:react-dom", "pkg:next", "pkg:recharts"];
const DB_PACKAGES = ["pkg:better-sqlite3", "pkg:drizzle-orm", "pkg:drizzle-kit"];

/**
 * Imports that break a rule CONTRIBUTING.md states and that the code had when the rule was
 * written down (listed there too). The list may shrink; a new one fails the test.
 */
const KNOWN_EXCEPTIONS = new Set(["db/jobs/threads.ts -> scripts/cliBundle.js"]);

/** The rule an import breaks, or null. */
function ruleBroken(file: string, to: string): string | null {
  if (under(to, "app") && !under(file, "app")) return "only app/ imports app/";
  if (under(to, "lib/cli") && !under(file, "lib/cli")) return "only lib/cli imports lib/cli";
  if (under(file, "lib") && UI_PACKAGES.includes(to)) return "lib/ has no React or Next.js";
  if (under(file, "db") && UI_PACKAGES.includes(to)) return "db/ has no React or Next.js";
  const beyond = ["scripts", "bench", "e2e"].some((r) => under(to, r));
  if ((under(file, "lib") || under(file, "db") || under(file, "app")) && beyond)
    return "lib/, db/ and app/ do not import scripts/, bench/ or e2e/";
  if (under(file, "lib") && !under(file, "lib/cli") && (under(to, "db") || DB_PACKAGES.includes(to)))
    return "lib/ (all but lib/cli) has no database";
  return null;
}

describe("the import rules", () => {
  const sources = projectFiles(...CODE_ROOTS, "proxy.ts", "instrumentation.ts").filter((f) =>
    /\.(ts|tsx|js|mjs)$/.test(f),
  );

  it("are read from every source file, relative and `@/` imports alike", () => {
    expect(importsOf("lib/cli/commands/score.ts")).toContain("lib/ingest/splitRecords");
    expect(importsOf("app/page.tsx")).toContain("db/client");
    expect(sources.length).toBeGreaterThan(100);
  });

  it("hold, apart from the known exceptions", () => {
    const broken: string[] = [];
    for (const file of sources)
      for (const to of importsOf(file)) {
        const rule = ruleBroken(file, to);
        if (rule && !KNOWN_EXCEPTIONS.has(`${file} -> ${to}`)) broken.push(`${file} -> ${to}: ${rule}`);
      }
    expect(broken).toEqual([]);
  });

  it("keep test kits in a testing/ folder of their room, imported only by tests, benchmarks, e2e and other kits", () => {
    const isKit = (f: string) => f.split("/").includes("testing");
    const misplaced = sources.filter((f) => /(TestKit|testIngest)\.tsx?$/.test(f));
    expect(misplaced).toEqual([]);
    expect(sources.filter(isKit).length).toBeGreaterThan(5);
    const leaks: string[] = [];
    for (const file of sources) {
      const test = /\.(test|spec)\.tsx?$/.test(file) || ["bench", "e2e"].some((r) => under(file, r));
      if (test || isKit(file)) continue;
      for (const to of importsOf(file)) if (isKit(to)) leaks.push(`${file} -> ${to}`);
    }
    expect(leaks).toEqual([]);
  });

  it("start no child process from app/: its background work runs on db/jobs' worker threads", () => {
    const starts: string[] = [];
    for (const file of sources.filter((f) => under(f, "app"))) {
      for (const to of importsOf(file))
        if (["pkg:node:child_process", "pkg:child_process", "pkg:node:cluster", "pkg:cluster"].includes(to))
          starts.push(`${file} -> ${to}`);
      const src = read(file);
      for (const m of src.matchAll(
        /(?<![.\w])(spawn|fork|execFile|execSync|spawnSync)\s*\(|bin\/assumeprobe\.js|"assumeprobe\.js"/g,
      ))
        starts.push(`${file}: ${m[0]}`);
    }
    expect(starts).toEqual([]);
  });

  it("leave resuming jobs to the server's start: no page or status read under app/ resumes one", () => {
    const resumes: string[] = [];
    for (const file of sources.filter((f) => under(f, "app")))
      for (const m of read(file).matchAll(/\b(resume\w*|watchJobs|abandonedJobs)\s*\(/g))
        resumes.push(`${file}: ${m[0]}`);
    expect(resumes).toEqual([]);
    expect(read("instrumentation.ts")).toMatch(/watchJobs\(/);
  });

  it("catch what they forbid", () => {
    expect(ruleBroken("lib/probe/score.ts", "db/client")).not.toBeNull();
    expect(ruleBroken("lib/probe/score.ts", "pkg:react")).not.toBeNull();
    expect(ruleBroken("db/queries/runs.ts", "app/_review/reviewer")).not.toBeNull();
    expect(ruleBroken("app/page.tsx", "lib/cli/main")).not.toBeNull();
    expect(ruleBroken("lib/cli/main.ts", "db/client")).toBeNull();
    expect(ruleBroken("app/page.tsx", "db/queries/runs")).toBeNull();
  });
});
