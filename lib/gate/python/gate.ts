/** The Python twin's gate, decision table, require_known and side_effect (lib/gate/decide.ts, decisionTable.ts, requireKnown.ts, sideEffect.ts). `__DECISION_TABLE__` is filled in by module.ts. */
export const GATE_PY = `

@dataclass(frozen=True)
class GateResult:
    """The gate's verdict for a call: read_only, allow, or block with the fields that block it."""

    verdict: str
    unknown: Tuple[str, ...] = ()
    conflict: Tuple[str, ...] = ()
    next: Optional[str] = None  # "ask" or "stop" when it blocks


def decide_gate(state: Any, requires: Sequence[str], mutating: bool = True) -> GateResult:
    """The decision table's verdict on the facts alone. The gate reads facts, never the model's arguments."""
    if not mutating:
        return GateResult("read_only")
    unknown: List[str] = []
    conflict: List[str] = []
    for name in requires:
        f = _fact_of(state, name)
        if _status(f) == "conflict":
            conflict.append(name)
        elif not is_usable(f):
            unknown.append(name)
    if not unknown and not conflict:
        return GateResult("allow")
    return GateResult("block", tuple(unknown), tuple(conflict), "stop" if conflict else "ask")


@dataclass(frozen=True)
class DecisionTableRow:
    row: str
    world_state: str
    user_visible: str
    tool_call: str  # "allow" or "block"


# The article's decision table for the turn, as data (generated from the TypeScript module's table).
DECISION_TABLE: Tuple[DecisionTableRow, ...] = (
__DECISION_TABLE__
)


def _row(name: str) -> DecisionTableRow:
    return next(r for r in DECISION_TABLE if r.row == name)


@dataclass(frozen=True)
class NextStep:
    """A turn's row of the decision table, with the user-visible line filled in."""

    row: str
    world_state: str
    user_visible: str
    tool_call: str
    message: str
    gate: Optional[GateResult]  # None when the world state did not parse and the tool mutates


def _step(row: DecisionTableRow, message: str, gate: Optional[GateResult]) -> NextStep:
    return NextStep(row.row, row.world_state, row.user_visible, row.tool_call, message, gate)


def _step_for(gate: GateResult) -> NextStep:
    if gate.verdict != "block":
        r = _row("all_known")
        return _step(r, r.user_visible, gate)
    r = _row("conflict" if gate.next == "stop" else "unknown")
    fields = gate.conflict if gate.next == "stop" else gate.unknown
    return _step(r, f"{r.user_visible}: {', '.join(fields)}", gate)


def next_step(parsed: Any, requires: Sequence[str], mutating: bool = True) -> NextStep:
    """The decision table's row for a turn. parsed is the turn's world state, or the WorldStateError
    parse_world_state raised. Read-only tools run even when the state did not parse; a mutating tool is
    blocked then, and the turn is retried once, then failed."""
    failed = isinstance(parsed, WorldStateError)
    gate = decide_gate({} if failed else parsed, requires, mutating)
    if gate.verdict == "read_only":
        r = _row("read_only")
        return _step(r, r.user_visible, gate)
    if failed:
        r = _row("unparsed")
        return _step(r, f"{r.user_visible} ({parsed.message})", None)
    return _step_for(gate)


class AssumptionError(Exception):
    """Raised when a side effect's required facts are not all known. fields is the stable string to log
    and alert on: every offending name in the order required, split into unknown and conflict; next
    ("ask" or "stop") and step are the decision table's answer."""

    def __init__(
        self,
        fields: Sequence[str],
        unknown: Optional[Sequence[str]] = None,
        conflict: Optional[Sequence[str]] = None,
    ) -> None:
        self.fields = list(fields)
        self.unknown = list(fields) if unknown is None and conflict is None else list(unknown or ())
        self.conflict = list(conflict or ())
        self.next = "stop" if self.conflict else "ask"
        self.step = _step_for(GateResult("block", tuple(self.unknown), tuple(self.conflict), self.next))
        super().__init__(
            f"blocked side effect; unknown: [{', '.join(self.unknown)}]; conflict: [{', '.join(self.conflict)}]"
        )


def _judge(state: Any, names: Sequence[str]) -> Tuple[GateResult, Optional[AssumptionError]]:
    gate = decide_gate(state, names)
    if gate.verdict == "allow":
        return gate, None
    offending = set(gate.unknown) | set(gate.conflict)
    fields = [n for n in names if n in offending]
    return gate, AssumptionError(fields, gate.unknown, gate.conflict)


def require_known(state: Any, *names: str) -> None:
    """Raises AssumptionError unless every named fact is known with a value other than None or ""."""
    _, error = _judge(state, names)
    if error is not None:
        raise error


F = TypeVar("F", bound=Callable[..., Any])
Sink = Callable[[Dict[str, Any]], Any]


def side_effect(*required: str, log: Optional[Sink] = None, tool: Optional[str] = None) -> Callable[[F], F]:
    """Wraps a side effect fn(state, *args, **kwargs) so it runs only when every required fact is known.

    A blocked call raises AssumptionError and fn is not called (for an async def, awaiting the call
    raises); an allowed call calls fn exactly once. Never retries, never fills, never catches. With
    log, each decision record goes to the sink first; a sink that raises stops the call, so a side
    effect never runs unlogged."""
    for name in required:
        if not isinstance(name, str):
            raise TypeError('side_effect takes the names of the facts it requires: @side_effect("user_id", ...)')
    names = tuple(required)

    def wrap(fn: F) -> F:
        name = tool or getattr(fn, "__name__", None) or "side_effect"

        def decide(state: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
            gate, error = _judge(state, names)
            if log is not None:
                step = error.step if error is not None else _step_for(gate)
                log(_decision_record(name, names, state, args, kwargs, gate, step))
            if error is not None:
                raise error

        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def gated_async(state: Any, *args: Any, **kwargs: Any) -> Any:
                decide(state, args, kwargs)
                return await fn(state, *args, **kwargs)

            return gated_async  # type: ignore[return-value]

        @functools.wraps(fn)
        def gated(state: Any, *args: Any, **kwargs: Any) -> Any:
            decide(state, args, kwargs)
            return fn(state, *args, **kwargs)

        return gated  # type: ignore[return-value]

    return wrap
`;
