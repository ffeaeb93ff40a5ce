/**
 * A stored time as every page shows it: `2026-11-29 14:05 UTC`, the whole value on hover. Takes ISO
 * (`2026-11-29T14:05:09.123Z`) and SQLite's `2026-11-29 14:05:09` alike.
 */
export function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className="tabular-nums" title={iso}>
      {iso.replace("T", " ").slice(0, 16)} UTC
    </time>
  );
}
