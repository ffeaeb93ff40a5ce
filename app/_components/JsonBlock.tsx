/** JSON as inert, wrapped text. React escapes it; nothing in it is ever rendered as markup. */
export function JsonBlock({ value, maxChars = 200_000 }: { value: unknown; maxChars?: number }) {
  let text = value === undefined ? "" : (JSON.stringify(value, null, 2) ?? String(value));
  const cut = text.length > maxChars;
  if (cut) text = text.slice(0, maxChars);
  return (
    <pre className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-all rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800">
      {text}
      {cut ? `\n… cut at ${maxChars.toLocaleString("en-US")} characters` : null}
    </pre>
  );
}
