/** The Python twin's decision log: the record form assumeprobe/gate@1, redaction and a file sink (lib/gate/decisionLog.ts, node.ts). */
export const LOG_PY = String.raw`

_MAX_DEPTH = 20


def _json_safe(v: Any, seen: Optional[set] = None, depth: int = 0) -> Any:
    """A value as JSON can hold it, as the TypeScript module renders it: non-finite numbers become strings,
    other objects "[ClassName]" (a client handed to the side effect is named, never dumped), cycles
    "[circular]". A value the gate counts as present stays present."""
    if v is None or isinstance(v, (str, bool)):
        return v
    if isinstance(v, int):
        try:
            float(v)
        except OverflowError:
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(v, float):
        if v != v:
            return "NaN"
        if v in (float("inf"), float("-inf")):
            return "Infinity" if v > 0 else "-Infinity"
        return 0 if v == 0 else v
    if isinstance(v, (datetime, date)):
        return v.isoformat()
    if inspect.isroutine(v) or inspect.isclass(v):
        return "[function]"
    seen = set() if seen is None else seen
    if not isinstance(v, (list, tuple, dict)):
        return f"[{type(v).__name__}]"
    if id(v) in seen:
        return "[circular]"
    if depth >= _MAX_DEPTH:
        return "[too deep]"
    seen.add(id(v))
    try:
        if isinstance(v, dict):
            return {str(k): _json_safe(x, seen, depth + 1) for k, x in v.items()}
        return [_json_safe(x, seen, depth + 1) for x in v]
    finally:
        seen.discard(id(v))


def _logged_fact(f: Any) -> Dict[str, Any]:
    status = _status(f)
    out: Dict[str, Any] = {"status": status if status in _STATUSES else "unknown"}
    value = _json_safe(_value(f))
    if value is not None:
        out["value"] = value
    source = f.source if isinstance(f, Fact) else f.get("source") if isinstance(f, Mapping) else None
    if isinstance(source, str):
        out["source"] = source
    return out


def _logged_state(state: Any) -> Dict[str, Any]:
    if isinstance(state, Mapping):
        items = list(state.items())
    elif hasattr(state, "__dict__") and not isinstance(state, type):
        items = list(vars(state).items())
    else:
        items = []
    return {str(name): _logged_fact(f) for name, f in items}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _decision_record(
    tool: str,
    requires: Sequence[str],
    state: Any,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    gate: GateResult,
    step: NextStep,
) -> Dict[str, Any]:
    record: Dict[str, Any] = {
        "schema": GATE_LOG_SCHEMA,
        "id": str(uuid.uuid4()),
        "time": _now(),
        "tool": tool,
        "requires": list(requires),
        "arguments": [_json_safe(a) for a in args],
    }
    if kwargs:
        record["keyword_arguments"] = {str(k): _json_safe(x) for k, x in kwargs.items()}
    record["world_state"] = _logged_state(state)
    record["gate"] = {
        "verdict": "allow" if gate.verdict == "allow" else "block",
        "unknown": list(gate.unknown),
        "conflict": list(gate.conflict),
        "next": gate.next,
    }
    record["next_step"] = {"row": step.row, "message": step.message}
    record["implementation"] = "python"
    return record


_REDACTED = "[redacted]"


def _redact_deep(v: Any) -> Any:
    if isinstance(v, list):
        return [_redact_deep(x) for x in v]
    if isinstance(v, dict):
        return {k: _redact_deep(x) for k, x in v.items()}
    return v if v is None or v == "" else _REDACTED


def redact_decision(record: Dict[str, Any]) -> Dict[str, Any]:
    """The record with every value replaced by "[redacted]": fact names, statuses and sources stay, so does
    whether a fact had a value (what the gate decided on); arguments keep their structure and keys."""
    out = dict(record)
    out["world_state"] = {
        name: dict(f, value=_REDACTED) if f.get("value") not in (None, "") else dict(f)
        for name, f in record["world_state"].items()
    }
    out["arguments"] = _redact_deep(record["arguments"])
    if "keyword_arguments" in record:
        out["keyword_arguments"] = _redact_deep(record["keyword_arguments"])
    out["redacted"] = True
    return out


def _ends_mid_line(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return False
            f.seek(-1, os.SEEK_END)
            return f.read(1) != b"\n"
    except FileNotFoundError:
        return False


def file_sink(path: str, redact: bool = False, run: Optional[str] = None, model: Optional[str] = None) -> Sink:
    """A sink that appends each decision to path as one JSON line, before the side effect runs. A new file
    is readable by its owner only; a last line cut off by a crash gets a newline first."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    pending = ["\n" if _ends_mid_line(path) else ""]

    def sink(record: Dict[str, Any]) -> None:
        out = redact_decision(record) if redact else dict(record)
        if run is not None:
            out["run"] = run
        if model is not None:
            out["model"] = model
        line = pending[0] + _js_json(out) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)
        pending[0] = ""

    return sink
`;
