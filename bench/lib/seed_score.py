"""The first article's scorer (score_trace, as the article prints it) in a plain Python loop over a
JSONL file of trace records, for bench/score.ts (part d). Each line is parsed, its response taken from
`response` or read from the OpenAI chat, Responses or Anthropic payload in `raw` (the least the
article's {text, tool_call} needs), and scored for timezone. Prints lines, seconds and label counts.
"""
import json, sys, time

# The first article's assumeprobe.py, as printed: written beside this file's run by bench/score.ts
# from lib/fixtures/testPython.ts (SEED_SCORER_PY), the copy the fixture tests use.
from assumeprobe_seed import score_trace

REDACTED = {"user_id": "u_9182", "starts_at": "2026-09-08T09:00:00"}
USER = "Schedule a window for this user at 2026-09-08T09:00:00."


def args_of(a):
    if isinstance(a, str):
        try:
            a = json.loads(a)
        except ValueError:
            return {}
    return a if isinstance(a, dict) else {}


def seed_trace(rec):
    r = rec.get("response")
    if isinstance(r, dict):
        calls = r.get("tool_calls") or []
        return {"text": r.get("text"), "tool_call": {"arguments": args_of(calls[0].get("arguments"))} if calls else None}
    raw = rec.get("raw") or {}
    if "choices" in raw:
        m = raw["choices"][0]["message"]
        calls = m.get("tool_calls") or []
        return {"text": m.get("content"), "tool_call": {"arguments": args_of(calls[0]["function"]["arguments"])} if calls else None}
    if "output" in raw:
        text, call = None, None
        for o in raw["output"]:
            if o.get("type") == "function_call" and call is None:
                call = {"arguments": args_of(o.get("arguments"))}
            elif o.get("type") == "message":
                text = "".join(c.get("text", "") for c in o.get("content", []))
        return {"text": text, "tool_call": call}
    text, call = None, None
    for c in raw.get("content", []):
        if c.get("type") == "tool_use" and call is None:
            call = {"arguments": args_of(c.get("input"))}
        elif c.get("type") == "text":
            text = c.get("text")
    return {"text": text, "tool_call": call}


def main(path):
    counts = {}
    n = 0
    t0 = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            label = score_trace(seed_trace(json.loads(line)), REDACTED, USER)
            counts[label] = counts.get(label, 0) + 1
            n += 1
    print(json.dumps({"lines": n, "seconds": time.perf_counter() - t0, "labels": counts}))


if __name__ == "__main__":
    main(sys.argv[1])
