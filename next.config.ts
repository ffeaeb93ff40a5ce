import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
  // A second build folder lets a benchmark or a screenshot server run beside the test build.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm test` type-checks the whole project with tsc; the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
