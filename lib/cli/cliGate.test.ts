/** `assumeprobe gate export`, as a user pipes it into a file. */
import { describe, expect, it } from "vitest";
import { pythonGateModule } from "../gate/python/module";
import { packageVersion } from "../packageVersion";
import { runCli } from "./testCli";

describe("gate export", () => {
  it("--python prints the Python twin, exit 0, nothing on stderr", async () => {
    const r = await runCli(["gate", "export", "--python"], {});
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(pythonGateModule(packageVersion()));
    expect(r.stdout).toContain(`VERSION = "${packageVersion()}"`);
  });

  it("without a language is a usage error (exit 2) that says which one to give", async () => {
    const r = await runCli(["gate", "export"], {});
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("say which language: --python");
  });
});
