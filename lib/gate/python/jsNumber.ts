/** `_js_number(v)`: a number as JavaScript prints it (`String(n)`), for Python code that must word values as the TypeScript code does (the gate's twin, the pytest reference scorer). */
export const PY_JS_NUMBER = `def _js_number(v):
    """A number as JavaScript prints it (String(n))."""
    if isinstance(v, int) and abs(v) < 2 ** 53:
        return str(v)
    try:
        f = float(v)
    except OverflowError:
        f = float("inf") if v > 0 else float("-inf")
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "Infinity" if f > 0 else "-Infinity"
    if f == 0:
        return "0"
    sign = "-" if f < 0 else ""
    mant, _, exp = repr(abs(f)).partition("e")
    ip, _, fp = mant.partition(".")
    digits = (ip + fp).lstrip("0")
    e = (int(exp) if exp else 0) - len(fp)
    trimmed = digits.rstrip("0")
    e += len(digits) - len(trimmed)
    digits = trimmed
    k = len(digits)
    n = k + e
    if k <= n <= 21:
        s = digits + "0" * (n - k)
    elif 0 < n <= 21:
        s = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        s = "0." + "0" * (-n) + digits
    else:
        x = n - 1
        s = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if x >= 0 else "-") + str(abs(x))
    return sign + s
`;
