/** A world state (top-level keys and values) as a two-column table. */
export function StateTable({ state, testId }: { state: Record<string, unknown>; testId?: string }) {
  const entries = Object.entries(state);
  if (entries.length === 0) return <p className="text-sm text-slate-500 italic">empty</p>;
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k} className="border-b border-slate-100 last:border-0">
            <th scope="row" className="py-1 pr-4 text-left align-top font-mono font-normal text-slate-500">
              {k}
            </th>
            <td className="py-1 font-mono break-all">{typeof v === "string" ? v : JSON.stringify(v)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
