/** The first value of a page's search parameter (Next.js gives an array when it is repeated). */
export function firstParam(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
