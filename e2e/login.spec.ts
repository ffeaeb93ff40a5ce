import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DB } from "./pages/e2eDb";
import { freePort, listening, rawRequest, type StartedServer, startNext } from "./pages/servers";

/**
 * Servers started by hand (`next start`, outside `npm start`) on the e2e build: one with an access
 * token (sessions through /login), and ones bound beyond loopback without a token.
 */
const TOKEN = "e2e-token-9f2c";
const RUN = "tern-7b-instruct/nightly-2026-11-29";
const runPath = `/runs/${encodeURIComponent(RUN)}`;

test.describe("a server with an access token", () => {
  test.describe.configure({ mode: "serial" });
  let server: StartedServer;
  test.beforeAll(async () => {
    server = await startNext(["-H", "127.0.0.1"], {
      ASSUMEPROBE_TOKEN: TOKEN,
      ASSUMEPROBE_ALLOWED_HOSTS: "dash.example.test",
    });
  });
  test.afterAll(async () => server?.stop());

  test("sends a page to /login, keeps where it was going, and signs in for a session cookie", async ({
    page,
  }) => {
    await page.goto(`${server.base}${runPath}?label=ASK`);
    await expect(page).toHaveURL(/\/login\?next=/);
    await expect(page.getByTestId("login-form")).toBeVisible();
    await page.getByTestId("login-token").fill("not-the-token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("login-error")).toContainText("not this server's access token");
    await page.getByTestId("login-token").fill(TOKEN);
    await page.getByTestId("login-reviewer").fill("Ana Reviewer");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("run-name")).toHaveText(RUN);
    expect(new URL(page.url()).search).toBe("?label=ASK");
    await expect(page.getByTestId("session-reviewer")).toHaveText("Ana Reviewer");
    const cookies = await page.context().cookies(server.base);
    expect(cookies.map((c) => c.name)).toEqual(["assumeprobe_session"]);
    const [c] = cookies;
    expect(c.httpOnly).toBe(true);
    expect(c.sameSite).toBe("Strict");
    expect(c.value).not.toContain(TOKEN);
    expect(c.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const days = (c.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    // The session also opens route handlers.
    const exp = await page.request.get(`${server.base}${runPath}/export?label=ASK`);
    expect(exp.status()).toBe(200);
    // Signing out ends it.
    await page.getByTestId("logout").click();
    await expect(page).toHaveURL(/\/login\?reason=logged-out/);
    await page.goto(`${server.base}/probes`);
    await expect(page).toHaveURL(/\/login\?next=%2Fprobes/);
    expect((await page.request.get(`${server.base}${runPath}/export`)).status()).toBe(401);
  });

  test("no longer takes ?token= and says so on the login page", async ({ page }) => {
    await page.goto(`${server.base}/probes?token=${TOKEN}`);
    await expect(page).toHaveURL(/\/login\?/);
    expect(page.url()).not.toContain(TOKEN);
    await expect(page.getByTestId("login-notice")).toContainText("no longer accepted");
    expect(await page.context().cookies(server.base)).toEqual([]);
    const api = await rawRequest(server.port, `/runs/${encodeURIComponent(RUN)}/export?token=${TOKEN}`);
    expect(api.status).toBe(401);
    expect(api.body).toContain("?token= is no longer accepted");
  });

  test("after login goes only to a path on this server", async ({ page }) => {
    for (const next of [
      "//evil.test/x",
      "https://evil.test/",
      "/\\evil.test",
      "javascript:alert(1)",
      "/login",
    ]) {
      await page.context().clearCookies();
      await page.goto(`${server.base}/login?next=${encodeURIComponent(next)}`);
      await page.getByTestId("login-token").fill(TOKEN);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((u) => u.pathname !== "/login" || u.search.includes("reason"));
      expect(new URL(page.url()).origin, next).toBe(server.base);
      expect(new URL(page.url()).pathname, next).toBe("/");
    }
  });

  test("takes the bearer header from scripts and answers other requests 401", async () => {
    const bearer = await rawRequest(server.port, `${runPath}/export`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.body.split("\n")[0]).toContain(`"run":${JSON.stringify(RUN)}`);
    for (const [path, headers] of [
      [`${runPath}/export`, {}],
      [`${runPath}/export`, { authorization: "Bearer wrong" }],
      [`${runPath}/export`, { authorization: TOKEN }],
      [`${runPath}/export`, { cookie: `assumeprobe_session=${TOKEN}` }],
      [`${runPath}/export`, { cookie: `assumeprobe_token=${TOKEN}` }],
      ["/api/upload?filename=x.jsonl", {}],
      // It reads its body itself, past the proxy: the same checks run first.
      ["/fixtures/import?filename=x.jsonl", {}],
      ["/probes", { accept: "application/json" }],
    ] as [string, Record<string, string>][]) {
      const res = await rawRequest(server.port, path, {
        headers,
        method: path.startsWith("/api") || path.startsWith("/fixtures/import") ? "POST" : "GET",
      });
      expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
      expect(res.headers["www-authenticate"]).toContain("Bearer");
    }
    const page = await rawRequest(server.port, "/probes", { headers: { accept: "text/html" } });
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe("/login?next=%2Fprobes");
  });

  test("answers the names in ASSUMEPROBE_ALLOWED_HOSTS, and only those beyond loopback", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const ok = await rawRequest(server.port, "/probes", { headers: { ...auth, host: "dash.example.test" } });
    expect(ok.status).toBe(200);
    const upper = await rawRequest(server.port, "/probes", {
      headers: { ...auth, host: "DASH.example.test.:8080" },
    });
    expect(upper.status).toBe(200);
    const other = await rawRequest(server.port, "/probes", {
      headers: { ...auth, host: "evil.example.test" },
    });
    expect(other.status).toBe(403);
  });

  test("a link followed from another site keeps its session (SameSite=Strict)", async ({ page }) => {
    await page.context().clearCookies();
    await page.goto(`${server.base}/login`);
    await page.getByTestId("login-token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${server.base}/`);
    // A navigation that another site started carries no Strict cookie; one hop from this site does.
    const hop = await rawRequest(server.port, runPath, {
      headers: { accept: "text/html", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    expect(hop.status).toBe(200);
    expect(hop.body).toContain('http-equiv="refresh"');
    // And in Chromium: a link on a page of another site (localhost is another site than 127.0.0.1).
    const port = await freePort();
    const other = createServer((_req, res) => res.end(`<a id="l" href="${server.base}${runPath}">open</a>`));
    await new Promise<void>((r) => other.listen(port, "127.0.0.1", r));
    try {
      await page.goto(`http://localhost:${port}/`);
      await page.click("#l");
      await expect(page.getByTestId("run-name")).toHaveText(RUN);
    } finally {
      other.close();
    }
  });

  test("ends every session when the token changes", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/login`);
    await page.getByTestId("login-token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${server.base}/`);
    const cookie = (await context.cookies(server.base))[0];
    await server.stop();
    server = await startNext(["-H", "127.0.0.1"], { ASSUMEPROBE_TOKEN: `${TOKEN}-rotated` });
    const res = await rawRequest(server.port, "/probes", {
      headers: { cookie: `${cookie.name}=${cookie.value}`, accept: "text/html" },
    });
    expect(res.status).toBe(303);
    await context.close();
  });
});

test.describe("a server started by hand beyond loopback without a token", () => {
  for (const args of [["-H", "0.0.0.0"], ["-H", "::"], []]) {
    test(`next start ${args.join(" ") || "(no -H: every interface)"} refuses to serve pages and routes`, async () => {
      const server = await startNext(args);
      try {
        for (const path of [
          "/",
          `${runPath}`,
          `${runPath}/export`,
          "/login",
          "/api/upload?filename=x.jsonl",
        ]) {
          const res = await rawRequest(server.port, path, {
            method: path.startsWith("/api") || path.startsWith("/fixtures/import") ? "POST" : "GET",
          });
          expect(res.status, path).toBe(503);
          expect(res.body).toContain("ASSUMEPROBE_TOKEN");
        }
      } finally {
        await server.stop();
      }
    });
  }

  test("next start -H 127.0.0.1 and -H ::1 serve as usual", async () => {
    for (const host of ["127.0.0.1", "::1"]) {
      const server = await startNext(["-H", host]);
      try {
        const res = await new Promise<number>((resolve, reject) => {
          import("node:http").then(({ get }) =>
            get(
              {
                host,
                port: server.port,
                path: "/probes",
                headers: { host: host === "::1" ? `[::1]:${server.port}` : `${host}:${server.port}` },
              },
              (r) => {
                r.resume();
                resolve(r.statusCode ?? 0);
              },
            ).on("error", reject),
          );
        });
        expect(res, host).toBe(200);
      } finally {
        await server.stop();
      }
    }
  });

  test("npm start beyond loopback without a token exits 2 before listening", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(process.cwd(), "scripts", "start.js")], {
      env: {
        ...process.env,
        HOST: "0.0.0.0",
        PORT: String(port),
        ASSUMEPROBE_DB: E2E_DB,
        ASSUMEPROBE_TOKEN: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c) => {
      err += c;
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain("set ASSUMEPROBE_TOKEN");
    expect(await listening(port)).toBe(false);
  });
});
