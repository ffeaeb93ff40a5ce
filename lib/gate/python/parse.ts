/** The Python twin's parser of world state arriving as JSON, with the TypeScript parser's error wording (lib/gate/worldState.ts). */
export const PARSE_PY = String.raw`

_SURROGATE = re.compile("[\ud800-\udfff]")


def _js_json(v: Any) -> str:
    """JSON text as JavaScript's JSON.stringify writes it: non-ASCII kept, lone surrogates escaped."""
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def _utf16_length(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _utf16_prefix(s: str, n: int) -> str:
    return s.encode("utf-16-le", "surrogatepass")[: 2 * n].decode("utf-16-le", "surrogatepass")


def _kind_of(v: Any) -> str:
    """A short name for what a value is, for error messages (the TypeScript module's wording)."""
    if v is None:
        return "null"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, str):
        return "the string " + _js_json(_utf16_prefix(v, 40) + "\u2026" if _utf16_length(v) > 40 else v)
    if isinstance(v, bool):
        return "the boolean " + ("true" if v else "false")
    if isinstance(v, (int, float)):
        return "the number " + _js_number(v)
    return "a " + type(v).__name__


_INDEX = re.compile(r"(0|[1-9][0-9]*)\Z")


def _js_keys(d: Mapping) -> List[Any]:
    """A JSON object's keys in the order JavaScript lists them: array indices first, ascending."""
    index = [k for k in d if isinstance(k, str) and _INDEX.match(k) and int(k) <= 4294967294]
    taken = set(index)
    return sorted(index, key=int) + [k for k in d if k not in taken]


class WorldStateError(ValueError):
    """World state that is not a JSON object of facts; message says what was wrong and where."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _parse_int(text: str) -> Any:
    # Python refuses to read more than 4300 digits as an int; JavaScript reads any as a float.
    return int(text) if len(text) <= 4000 else float(text)


_FACT_KEYS = ("status", "value", "source")


def _read_fact(key: str, entry: Any) -> Fact:
    where = f"fact {_js_json(key)}:"
    if isinstance(entry, Fact):
        return entry
    if not isinstance(entry, dict):
        raise WorldStateError(f"{where} must be an object {{status, value?, source?}}, got {_kind_of(entry)}")
    extra = [k for k in _js_keys(entry) if k not in _FACT_KEYS]
    if extra:
        listed = ", ".join(_js_json(k) for k in extra)
        plural = "s" if len(extra) > 1 else ""
        raise WorldStateError(f"{where} unexpected key{plural} {listed} (allowed: status, value, source)")
    if "status" not in entry:
        raise WorldStateError(f'{where} missing "status" (expected one of known|unknown|conflict)')
    status = entry["status"]
    if not isinstance(status, str) or status not in _STATUSES:
        raise WorldStateError(f'{where} "status" is {_kind_of(status)}, expected one of known|unknown|conflict')
    source = entry.get("source")
    if "source" in entry and not isinstance(source, str):
        raise WorldStateError(f'{where} "source" is {_kind_of(source)}, expected a string')
    return Fact(FactStatus(status), entry.get("value"), source)


def parse_world_state(payload: Any, names: Sequence[str] = ()) -> WorldState:
    """Reads a world state from JSON text (or an already-parsed dict); raises WorldStateError, never anything else.

    Every name in names the input lacks becomes an explicit unknown fact; the state lists names
    first, in that order, then the input's other facts. NaN and Infinity are not JSON and are refused,
    as JavaScript refuses them.
    """
    raw = payload
    if isinstance(payload, str):
        try:
            raw = json.loads(payload, parse_constant=_no_constant, parse_int=_parse_int)
        except (ValueError, RecursionError) as e:
            raise WorldStateError(f"world state is not JSON: {e}") from None
    if not isinstance(raw, dict):
        raise WorldStateError(f"world state must be a JSON object of facts, got {_kind_of(raw)}")
    read: Dict[str, Fact] = {}
    for key in _js_keys(raw):
        if not isinstance(key, str):
            raise WorldStateError(f"world state names must be strings, got {_kind_of(key)}")
        read[key] = _read_fact(key, raw[key])
    state = WorldState()
    for name in names:
        if name not in state:
            state[name] = read.get(name, Fact.unknown())
    for key, f in read.items():
        if key not in state:
            state[key] = f
    return state
`;
