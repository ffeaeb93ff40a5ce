/**
 * A scope form's select of names (runs, models): "any" first, then the names, and a value the URL
 * names that is not among them (an unknown run still shows as the scope it asked for).
 */
export function ScopeSelect({
  label,
  name,
  value,
  any,
  options,
  className,
  selectClassName,
}: {
  label: string;
  name: string;
  value: string | undefined;
  /** The first option's text: what an empty value means. */
  any: string;
  options: string[];
  className?: string;
  selectClassName: string;
}) {
  const shown = value && !options.includes(value) ? [...options, value] : options;
  return (
    <label className={className ?? "flex flex-col"}>
      {label}
      <select name={name} defaultValue={value ?? ""} className={selectClassName}>
        <option value="">{any}</option>
        {shown.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </label>
  );
}
