import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GateDecisionRecordSchema } from "../decisionRecordSchema";
import { PYTHON_TWIN_IMPORTS, pythonGateModule } from "./module";
import { runPython, twinFolder } from "./testPython";

const twin = twinFolder();
afterAll(() => twin.remove());
const py = (code: string) => runPython(twin.dir, code);

/**
 * Names and keyword arguments the standard library gained after Python 3.9 (CI runs only 3.11, so
 * a test cannot run the module on 3.9 itself): a use of any of them is a use of a newer API.
 */
const NEWER_NAMES = [
  "TaskGroup",
  "timeout",
  "StrEnum",
  "ReprEnum",
  "verify",
  "UTC",
  "pairwise",
  "batched",
  "ParamSpec",
  "Concatenate",
  "TypeAlias",
  "TypeGuard",
  "Self",
  "Never",
  "LiteralString",
  "Required",
  "NotRequired",
  "Unpack",
  "TypeVarTuple",
  "assert_never",
  "assert_type",
  "reveal_type",
  "dataclass_transform",
  "override",
  "get_annotations",
  "aiter",
  "anext",
  "bit_count",
  "ExceptionGroup",
  "BaseExceptionGroup",
  "add_note",
  "tomllib",
  "KW_ONLY",
  "EncodingWarning",
  "is_integer",
  "markcoroutinefunction",
  "getstatic",
];
const NEWER_KEYWORDS = ["slots", "kw_only", "match_args", "strict"];

/** Walks the module's syntax tree: imports, names and attributes used, keyword arguments, `|` outside annotations. */
const AUDIT = `
import ast, builtins, json
TYPES = {n for n in dir(builtins) if isinstance(getattr(builtins, n), type)}
with open("assumeprobe_gate.py", encoding="utf-8") as f:
    src = f.read()
tree = ast.parse(src, feature_version=(3, 9))
imports, names, keywords, bitor = set(), set(), set(), 0
annotations = set()
for node in ast.walk(tree):
    for ann in [getattr(node, "annotation", None), getattr(node, "returns", None)]:
        if ann is not None:
            annotations.update(id(n) for n in ast.walk(ann))
for node in ast.walk(tree):
    if isinstance(node, ast.Import):
        imports.update(a.name.split(".")[0] for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        imports.add(node.module.split(".")[0])
        names.update(a.name for a in node.names)
    elif isinstance(node, ast.Name):
        names.add(node.id)
    elif isinstance(node, ast.Attribute):
        names.add(node.attr)
    elif isinstance(node, ast.keyword) and node.arg:
        keywords.add(node.arg)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and id(node) not in annotations:
        # A union of types (int | None) evaluated at run time needs 3.10; a set or flag union does not.
        typeish = lambda n: isinstance(n, (ast.Subscript, ast.Constant)) or (isinstance(n, ast.Name) and (n.id[:1].isupper() or n.id in TYPES))
        bitor += typeish(node.left) or typeish(node.right)
future = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"]
print(json.dumps({"imports": sorted(imports), "names": sorted(names), "keywords": sorted(keywords),
                  "bitor": bitor, "future_annotations": any(a.name == "annotations" for n in future for a in n.names)}))
`;

describe("the Python twin's source", () => {
  const audit = JSON.parse(py(AUDIT)) as {
    imports: string[];
    names: string[];
    keywords: string[];
    bitor: number;
    future_annotations: boolean;
  };

  it("parses as Python 3.9 and imports only the standard library modules it lists", () => {
    expect(audit.imports.every((m) => (PYTHON_TWIN_IMPORTS as readonly string[]).includes(m))).toBe(true);
    expect(audit.imports).toContain("json");
    // Annotations are never evaluated, so typing's newer spellings in them could not break 3.9 either.
    expect(audit.future_annotations).toBe(true);
  });

  it("uses no standard-library name or keyword argument newer than 3.9, and no `X | Y` outside annotations", () => {
    expect(audit.names.filter((n) => NEWER_NAMES.includes(n))).toEqual([]);
    expect(audit.keywords.filter((k) => NEWER_KEYWORDS.includes(k))).toEqual([]);
    expect(audit.bitor).toBe(0);
  });

  it("the audit itself catches a newer API and syntax", () => {
    const newer = twinFolder({});
    try {
      const src = `${pythonGateModule("x")}\nimport tomllib\n@dataclass(slots=True)\nclass X:\n    a: int\nY = int | str\n`;
      const r = JSON.parse(
        runPython(
          newer.dir,
          `with open("assumeprobe_gate.py", "w") as f:\n    f.write(${JSON.stringify(src)})\n${AUDIT}`,
        ),
      );
      expect(r.imports).toContain("tomllib");
      expect(r.keywords).toContain("slots");
      expect(r.bitor).toBe(1);
      expect(() =>
        runPython(
          newer.dir,
          `import ast\nast.parse("match x:\\n    case 1: pass\\n", feature_version=(3, 9))`,
        ),
      ).toThrow(/SyntaxError/);
    } finally {
      newer.remove();
    }
  });

  it("names its version and takes the decision table's wording from the TypeScript table", () => {
    const src = pythonGateModule("1.2.3");
    expect(src).toContain('VERSION = "1.2.3"');
    expect(src).toContain(
      'DecisionTableRow("unknown", "Any required fact unknown", "Ask only for the missing fact(s)", "block")',
    );
    expect(src).not.toMatch(/__VERSION__|__DECISION_TABLE__/);
  });
});

describe("the Python twin, with the article's names", () => {
  it("runs the article's test plan: unknown date cannot book, conflict is not known, known books", () => {
    const out = py(`
from assumeprobe_gate import AssumptionError, Fact, FactStatus, WorldState, require_known, side_effect

class FakeCalendar:
    def __init__(self):
        self.calls = []
    def book(self, **kwargs):
        self.calls.append(kwargs)
        return {"ok": True, **kwargs}

@side_effect("user_id", "resource_id", "action_date")
def book_slot(state, client):
    return client.book(user_id=state.user_id.value, resource_id=state.resource_id.value,
                       action_date=state.action_date.value)

cal = FakeCalendar()
state = WorldState(user_id=Fact.known("u_1", "session"), resource_id=Fact.known("room_9", "catalog"),
                   action_date=Fact.unknown())
try:
    book_slot(state, cal)
except AssumptionError as err:
    print(err.fields, err.unknown, err.conflict, err.next, err.step.message)
state["action_date"] = Fact.conflict("2026-09-08")
try:
    book_slot(state, cal)
except AssumptionError as err:
    print(err.fields, err.unknown, err.conflict, err.next, err.step.row)
state["action_date"] = Fact.known("2026-09-08", "user")
print(book_slot(state, cal)["ok"], cal.calls)
print(FactStatus.KNOWN == "known", Fact.known(0, "x").status is FactStatus.KNOWN)
require_known(WorldState(n=Fact.known(0), f=Fact.known(False)), "n", "f")
for empty in [None, ""]:
    try:
        require_known({"a": Fact.known(empty)}, "a")
    except AssumptionError as err:
        print("empty blocks", err.fields)
`);
    expect(out.split("\n")).toEqual([
      "['action_date'] ['action_date'] [] ask Ask only for the missing fact(s): action_date",
      "['action_date'] [] ['action_date'] stop conflict",
      "True [{'user_id': 'u_1', 'resource_id': 'room_9', 'action_date': '2026-09-08'}]",
      "True True",
      "empty blocks ['a']",
      "empty blocks ['a']",
      "",
    ]);
  });

  it("gates async functions: a block raises when awaited, before the function runs", () => {
    const out = py(`
import asyncio
from assumeprobe_gate import AssumptionError, Fact, side_effect
ran = []
@side_effect("a")
async def write(state, n):
    ran.append(n)
    return n * 2
print(asyncio.run(write({"a": Fact.known(1)}, 21)))
async def blocked():
    try:
        await write({"a": Fact.conflict(1)}, 1)
    except AssumptionError as err:
        return err.conflict
print(asyncio.run(blocked()), ran)
`);
    expect(out).toBe("42\n['a'] [21]\n");
  });

  it("keeps the article's AssumptionError(fields) and getattr state working, and refuses @side_effect without names", () => {
    const out = py(`
from dataclasses import dataclass, field
from assumeprobe_gate import AssumptionError, Fact, require_known, side_effect
err = AssumptionError(["timezone"])
print(err.fields, err.unknown, err.conflict, err)
@dataclass
class ArticleState:
    user_id: Fact = field(default_factory=Fact.unknown)
    timezone: Fact = field(default_factory=Fact.unknown)
try:
    require_known(ArticleState(user_id=Fact.known("u")), "user_id", "timezone")
except AssumptionError as e:
    print(e.fields)
try:
    side_effect(lambda s: 1)
except TypeError as e:
    print("TypeError:", e)
`);
    expect(out.split("\n")).toEqual([
      "['timezone'] ['timezone'] [] blocked side effect; unknown: [timezone]; conflict: []",
      "['timezone']",
      'TypeError: side_effect takes the names of the facts it requires: @side_effect("user_id", ...)',
      "",
    ]);
  });

  it("logs each decision to a callable sink and to a file, redacted when asked, in the record form", () => {
    const out = py(`
import json
from assumeprobe_gate import Fact, file_sink, side_effect
records = []
class Client:
    token = "secret"
@side_effect("user_id", "when", log=records.append)
def book(state, client, note=None):
    return "booked"
book({"user_id": Fact.known("u_1"), "when": Fact.known("tue")}, Client(), note={"tz": "UTC"})
try:
    book({"user_id": Fact.known("u_1")}, Client())
except Exception:
    pass
sink = file_sink("logs/gate.jsonl", redact=True, run="agent", model="m")
for r in records:
    sink(r)
print(json.dumps(records))
`);
    const records = JSON.parse(out);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      tool: "book",
      arguments: ["[Client]"],
      keyword_arguments: { note: { tz: "UTC" } },
      gate: { verdict: "allow" },
      implementation: "python",
    });
    expect(records[1]).toMatchObject({ gate: { verdict: "block", unknown: ["when"], next: "ask" } });
    const path = join(twin.dir, "logs", "gate.jsonl");
    const lines = readFileSync(path, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const r of [...records, ...lines])
      expect(GateDecisionRecordSchema.safeParse(r).error).toBeUndefined();
    expect(lines[0]).toMatchObject({
      run: "agent",
      model: "m",
      redacted: true,
      world_state: { user_id: { status: "known", value: "[redacted]" } },
      keyword_arguments: { note: { tz: "[redacted]" } },
    });
    expect(readFileSync(path, "utf8")).not.toMatch(/u_1|tue|secret/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
