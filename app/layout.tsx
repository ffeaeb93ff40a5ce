import type { Metadata } from "next";
import Link from "next/link";
import { SessionBadge } from "./_components/SessionBadge";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "assumeprobe", template: "%s · assumeprobe" },
  description: "Catch LLM agents inventing facts in tool calls.",
  // Files in public/: the SVG for browsers that take one, the ICO (made from it) for the rest.
  icons: {
    icon: [
      { url: "/icon.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
    ],
  },
};

const NAV = [
  { href: "/", label: "Runs" },
  { href: "/review", label: "Review" },
  { href: "/agreement", label: "Agreement" },
  { href: "/fixtures", label: "Fixtures" },
  { href: "/compare", label: "Compare" },
  { href: "/probes", label: "Probes" },
  { href: "/lexicon", label: "Lexicon" },
  { href: "/upload", label: "Upload" },
  { href: "/ingests", label: "Ingests" },
];

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
            <Link
              href="/"
              className="inline-flex min-h-6 items-center font-semibold tracking-tight text-slate-900"
            >
              assumeprobe
            </Link>
            <nav aria-label="Main" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {NAV.map((n) => (
                <Link
                  key={n.href}
                  href={n.href}
                  className="inline-flex min-h-6 items-center text-slate-600 hover:text-slate-900"
                >
                  {n.label}
                </Link>
              ))}
            </nav>
            <SessionBadge />
          </div>
        </header>
        <main className="mx-auto max-w-screen-2xl px-4 py-6 sm:px-6">{children}</main>
      </body>
    </html>
  );
}
