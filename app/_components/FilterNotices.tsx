/**
 * What a page did not read of its URL (an unknown parameter, a field the run lacks), said in a
 * notice naming what it accepts, not silently dropped. Nothing when there is nothing to say.
 */
export function FilterNotices({ notices }: { notices: readonly (string | null)[] }) {
  const shown = notices.filter((n): n is string => n !== null);
  if (shown.length === 0) return null;
  return (
    <ul
      role="status"
      className="rounded border border-amber-300 bg-amber-50 p-2 text-sm break-words text-amber-900"
      data-testid="filter-notice"
    >
      {shown.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
