import { redirect } from "next/navigation";
import { hasRunPath, runHref } from "@/lib/runPath";
import RunPage, { generateMetadata as runMetadata } from "./[name]/page";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const nameOf = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** Rebuilds the run page's props for a name given as `?name=`. */
async function asRunPage({ searchParams }: Props) {
  const { name: raw, ...rest } = await searchParams;
  const name = nameOf(raw);
  return {
    name,
    props: {
      params: Promise.resolve({ name: encodeURIComponent(name) }),
      searchParams: Promise.resolve(rest),
    },
  };
}

export async function generateMetadata(props: Props) {
  return runMetadata((await asRunPage(props)).props);
}

/**
 * `/runs?name=NAME`: the run page of a run whose name no URL path can hold (`.` and `..`, see
 * lib/runPath.ts). Any other name is sent to its own path, so each run has one address.
 */
export default async function RunByQueryPage(props: Props) {
  const { name, props: runProps } = await asRunPage(props);
  if (name === "") redirect("/");
  if (hasRunPath(name)) {
    const rest = new URLSearchParams();
    for (const [k, v] of Object.entries(await runProps.searchParams))
      for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) rest.append(k, x);
    redirect(runHref(name, rest));
  }
  return RunPage(runProps);
}
