/** A stored UTC timestamp as `2026-12-01 11:21 UTC`. */
export function when(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
