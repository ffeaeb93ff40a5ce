export function Card({
  title,
  children,
  className = "",
  aside,
}: {
  title?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
  aside?: React.ReactNode;
}) {
  return (
    <section className={`rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${className}`}>
      {title ? (
        <div className="mb-3 flex items-baseline justify-between gap-2">
          <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">{title}</h2>
          {aside}
        </div>
      ) : null}
      {children}
    </section>
  );
}
