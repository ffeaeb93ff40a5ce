/** A mistake in how the command was called (exit 2): unknown probe, unreadable file, bad option. */
export class UsageError extends Error {}

/** Parses a positive integer option, or says which option was wrong. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0)
      throw new UsageError(`${name} must be a positive integer, got "${value}"`);
    return n;
  };
}
