import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "assumeprobe", template: "%s · assumeprobe" },
  description: "Catch LLM agents inventing facts in tool calls.",
};

const NAV = [
  { href: "/", label: "Runs" },
  { href: "/review", label: "Review" },
  { href: "/agreement", label: "Agreement" },
  { href: "/probes", label: "Probes" },
  { href: "/upload", label: "Upload" },
];

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-6 gap-y-1 px-4 py-3 sm:px-6">
            <Link href="/" className="font-semibold tracking-tight text-slate-900">
              assumeprobe
            </Link>
            <nav aria-label="Main" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {NAV.map((n) => (
                <Link key={n.href} href={n.href} className="text-slate-600 hover:text-slate-900">
                  {n.label}
                </Link>
              ))}
            </nav>
          </div>
        </header>
        <main className="mx-auto max-w-screen-2xl px-6 py-6">{children}</main>
      </body>
    </html>
  );
}
