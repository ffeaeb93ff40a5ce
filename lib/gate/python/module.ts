import { pyString } from "../../fixtures/python";
import { DECISION_TABLE } from "../decisionTable";
import { FACTS_PY } from "./facts";
import { GATE_PY } from "./gate";
import { PY_JS_NUMBER } from "./jsNumber";
import { LOG_PY } from "./log";
import { PARSE_PY } from "./parse";

/** The modules the twin may import: the standard library's, each there in Python 3.9 (checked by a test). */
export const PYTHON_TWIN_IMPORTS = [
  "__future__",
  "dataclasses",
  "datetime",
  "enum",
  "functools",
  "inspect",
  "json",
  "os",
  "re",
  "typing",
  "uuid",
] as const;

/** The decision table's rows as Python, from the TypeScript table: one source for the wording. */
function decisionTablePy(): string {
  return DECISION_TABLE.map(
    (r) =>
      `    DecisionTableRow(${[r.row, r.worldState, r.userVisible, r.toolCall].map(pyString).join(", ")}),`,
  ).join("\n");
}

/**
 * `assumeprobe gate export --python`: the gate as one Python file, standard library only, the same
 * semantics as `assumeprobe/gate` (lib/gate), generated from the templates beside this file.
 */
export function pythonGateModule(version: string): string {
  const src = [FACTS_PY, "\n\n", PY_JS_NUMBER, PARSE_PY, GATE_PY, LOG_PY].join("");
  return `${src
    .replaceAll("__VERSION__", version)
    .replace("__DECISION_TABLE__", decisionTablePy())
    .trimEnd()}\n`;
}
