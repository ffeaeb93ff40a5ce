// Builds the package's gate entries from lib/gate (the code the scorer and the fuzzer run):
//   <outdir>/gate.mjs  `assumeprobe/gate`, platform-neutral, no imports at all
//   <outdir>/node.mjs  `assumeprobe/gate/node`, the file sink (imports node:fs and node:path only)
//   <outdir>/types/    their declarations
// Shared code goes to one chunk both import, so an AssumptionError is the same class from either.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { build } from "esbuild";
import ts from "typescript";

const ENTRIES = { gate: "index.ts", node: "node.ts" };

/** Adds `.js` to relative imports, so the declarations resolve under `moduleResolution: node16` too. */
function withJsExtensions(text) {
  return text.replace(/(from\s+|import\()(["'])(\.\.?\/[^"']+?)\2/g, (m, lead, q, spec) =>
    /\.(m?js|json)$/.test(spec) ? m : `${lead}${q}${spec}.js${q}`,
  );
}

function emitDeclarations(gateDir, typesDir) {
  const program = ts.createProgram(
    Object.values(ENTRIES).map((f) => join(gateDir, f)),
    {
      declaration: true,
      emitDeclarationOnly: true,
      outDir: typesDir,
      rootDir: gateDir,
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: ["node"],
    },
  );
  const written = [];
  const result = program.emit(undefined, (file, text) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, withJsExtensions(text));
    written.push(file);
  });
  const problems = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (problems.length > 0) {
    const host = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => gateDir,
      getNewLine: () => "\n",
    };
    throw new Error(`the gate's declarations did not build:\n${ts.formatDiagnostics(problems, host)}`);
  }
  return written;
}

/**
 * Builds into `outdir` (emptied first) from the project at `root`. Fails when either entry would reach a
 * package or a file outside lib/gate: the built module must run with nothing installed beside it.
 */
export async function buildGate(root, outdir) {
  const gateDir = join(root, "lib", "gate");
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, file]) => [name, join(gateDir, file)]),
    ),
    outdir,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["node:*"],
    metafile: true,
    absWorkingDir: root,
    logLevel: "warning",
  });
  const outside = Object.keys(result.metafile.inputs).filter((f) => {
    const rel = relative(gateDir, join(root, f));
    return rel.startsWith("..") || rel.includes("node_modules");
  });
  if (outside.length > 0)
    throw new Error(`the gate entries must use lib/gate only, but they reach: ${outside.join(", ")}`);
  const types = emitDeclarations(gateDir, join(outdir, "types"));
  return { outputs: Object.keys(result.metafile.outputs), metafile: result.metafile, types };
}
