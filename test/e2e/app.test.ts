import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, loginCookie, loginInBrowser } from "../../harness/login.ts";

// The demo's transactional run: its first utterance and a private thought, straight from the shipped bundle.
const demo = JSON.parse(readFileSync("demo/demo-transactional.json", "utf8"));
const mediatedRun = demo.runs.find((r: { mediated: boolean }) => r.mediated);
const firstUtterance: string = mediatedRun.turns[0].utterance;
const firstThought: string = mediatedRun.turns[0].thought;
const runPath = `/runs/${encodeURIComponent(mediatedRun.id)}`;

describe("web app over HTTP (fresh database, seeded on start)", () => {
  let server: AppServer;
  let admin: { headers: { cookie: string } };
  beforeAll(async () => {
    server = await startAppServer({ seedOnStart: true });
    admin = { headers: { cookie: await loginCookie(server.url, DEMO.admin) } };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("seeds the demo study on first start and says so", () => {
    expect(server.output()).toMatch(/Seeded the demo study: 4 scenarios, 40 runs, 16 evaluations/);
    expect(server.output()).toMatch(
      /Seeded the demo benchmark "Demo benchmark \(stand-in output\)": 128 runs, 224 evaluations \(stand-in output, not model output\)/,
    );
    expect(server.output()).toMatch(/is running at http:\/\/127\.0\.0\.1:\d+\//);
    expect(server.output()).toMatch(/admin +admin +password: demo-admin-pass/);
    expect(server.output()).toMatch(/expert +ada +password: demo-ada-pass/);
  });

  it("keeps the research pages for admins: anonymous visitors are sent to log in, annotators get 403", async () => {
    const anonymous = await fetch(server.url + runPath, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?next=/);
    const expert = { headers: { cookie: await loginCookie(server.url, DEMO.ada) } };
    expect((await fetch(server.url + "/runs", expert)).status).toBe(403);
    expect((await fetch(server.url + "/runs", admin)).status).toBe(200);
  });

  it("sets the session cookie httpOnly and SameSite, and refuses a wrong password without saying which part was wrong", async () => {
    const ok = await fetch(server.url + "/login", {
      method: "POST",
      body: new URLSearchParams(DEMO.admin),
      redirect: "manual",
    });
    expect(ok.headers.get("set-cookie")).toMatch(/socrates_session=.+; .*HttpOnly/i);
    expect(ok.headers.get("set-cookie")).toMatch(/SameSite=Lax/i);
    const bad = await fetch(server.url + "/login", {
      method: "POST",
      body: new URLSearchParams({ username: "admin", password: "nope" }),
      redirect: "manual",
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("set-cookie")).toBeNull();
    expect(await bad.text()).toContain("That username and password do not match an active account.");
  });

  it("serves the home page with the demo's numbers", async () => {
    const res = await fetch(server.url + "/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("SoCRATES Studio");
    expect(html).toMatch(/<strong>4<\/strong> scenarios/);
    // 8 runs in matched pairs + 32 short runs in the A/B reactiveness pairs + the demo benchmark's 128.
    expect(html).toMatch(/<strong>168<\/strong> runs/);
  });

  it("lists the demo scenarios from four domains", async () => {
    const html = await (await fetch(server.url + "/scenarios", admin)).text();
    for (const domain of ["transactional", "healthcare", "environmental", "intra-organizational"])
      expect(html).toContain(domain);
  });

  it("serves a demo run viewer with its dialogue", async () => {
    const res = await fetch(server.url + runPath, admin);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(firstUtterance.replace(/'/g, "&#x27;").slice(0, 40));
    expect(html).toContain('data-testid="consensus-chart"');
  });

  it("sends small and large pages whole, each with its exact length (remix-handler.server.ts)", async () => {
    // The dashboard's document is far past the size from which the adapter writes chunks instead of one copy.
    for (const [path, large] of [
      ["/scenarios", false],
      ["/admin/studies/1", true],
    ] as const) {
      const res = await fetch(server.url + path, admin);
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.byteLength > 64 * 1024).toBe(large);
      expect(res.headers.get("content-length")).toBe(String(body.byteLength));
      // Remix's data scripts follow the page's markup: the whole document has both.
      expect(body.toString("utf8")).toContain("</html>");
      expect(body.toString("utf8")).toMatch(/window\.__remixContext/);
    }
  });

  it("answers 404 with a helpful page for unknown pages and runs", async () => {
    const page = await fetch(server.url + "/no/such/page");
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Back to the start page");
    const run = await fetch(server.url + "/runs/no-such-run", admin);
    expect(run.status).toBe(404);
    expect(await run.text()).toContain("There is no run");
  });

  describe.runIf(runBrowserTests)("in Chromium", () => {
    let browser: Browser;
    // biome-ignore lint/suspicious/noDuplicateTestHooks: its own describe (runIf), which Biome does not see as one
    beforeAll(async () => {
      browser = await launchChromium();
    });
    // biome-ignore lint/suspicious/noDuplicateTestHooks: as above
    afterAll(async () => {
      await browser?.close();
    });

    it("opens a run viewer and finds the dialogue, the chart and the topic table", async () => {
      const page = await browser.newPage();
      await loginInBrowser(page, server.url, DEMO.admin);
      await page.goto(server.url + runPath);
      const dialogue = page.getByTestId("dialogue");
      await dialogue.getByText(firstUtterance).waitFor();
      expect(await dialogue.locator("li.turn.party").count()).toBeGreaterThan(10);
      expect(await dialogue.locator("li.turn.mediator").count()).toBe(
        mediatedRun.turns.filter((t: { role: string }) => t.role === "mediator").length,
      );

      // Snippet boundaries, as annotators will see them: the first one opens the dialogue.
      expect(await dialogue.locator("li.snippet-divider").first().textContent()).toMatch(/^Snippet 1 · turns 1–\d+/);

      // Drawn by Vega-Lite like every chart; the wide drawing is the one on a laptop.
      const chart = page.getByTestId("consensus-chart");
      const wide = chart.locator(".chart-wide svg");
      expect(await wide.locator('[aria-roledescription="line mark"]').count()).toBe(2); // C[t] and G[t]
      expect(await wide.locator(".mediator_turns_marks line").count()).toBeGreaterThan(0);
      expect(await chart.textContent()).toContain("G[t] per-turn baseline");
      expect(await page.getByTestId("topic-scores").locator("details").count()).toBe(demo.scenarios[0].topics.length);

      // Thoughts stay hidden until asked for — after hydration the toggle works client-side.
      expect(await page.getByText(firstThought).count()).toBe(0);
      await page.getByLabel("Show private thoughts").check();
      await page.getByText(firstThought).waitFor();
      await page.close();
    });

    it("navigates from the home page to a scenario and on to its runs", async () => {
      const page = await browser.newPage();
      await loginInBrowser(page, server.url, DEMO.admin);
      await page.goto(server.url + "/");
      await page.getByRole("link", { name: "Scenarios", exact: true }).first().click();
      await page.getByRole("link", { name: demo.scenarios[0].title }).click();
      await page.getByRole("heading", { name: demo.scenarios[0].title }).waitFor();
      // A run's link is its title (scenario · condition · mediator); its id is printed beneath.
      await page.getByRole("row").filter({ hasText: mediatedRun.id }).getByRole("link").first().click();
      await page.getByTestId("dialogue").waitFor();
      expect(page.url()).toContain(runPath);
      await page.close();
    });
  });
});
