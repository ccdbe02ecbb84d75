/**
 * Issue 32 in Chromium through the real server: an annotator's own keys, set on the settings page, answer and submit
 * the A/B task while the old keys do nothing, and the cheat sheet and key hints show them; a key given to two commands
 * is refused at its fields and stores nothing; reset gives the defaults back. Gold feedback appears after a gold item
 * on a study that enables it, can be dismissed, is gone on the next item, and never appears on a study without it.
 * Results are read back from the database.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAbStudy, createConsensusStudy } from "../../app/server/annotation/studies.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { axeViolations, describeViolations } from "../../harness/axe.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";
import { readRows } from "../helpers/read-rows.ts";

describe.runIf(runBrowserTests)("hotkey settings and gold feedback in Chromium", { timeout: 240_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let keysStudy = 0;
  let feedbackStudy = 0;
  let quietStudy = 0;
  let consensusStudy = 0;

  const read = <T>(sql: string, ...args: unknown[]) => readRows<T>(server.dbPath, sql, ...args);
  const hotkeysOf = (username: string) =>
    JSON.parse(read<{ h: string }>(`SELECT hotkeys AS h FROM annotators WHERE username = ?`, username)[0].h);
  const choicesIn = (studyId: number, username: string) =>
    read<{ itemId: number; choice: string }>(
      `SELECT l.study_item_id AS itemId, json_extract(r.payload, '$.choice') AS choice FROM labels l
       JOIN label_revisions r ON r.label_id = l.id JOIN study_items i ON i.id = l.study_item_id
       JOIN annotators n ON n.id = l.annotator_id WHERE i.study_id = ? AND n.username = ? ORDER BY r.id`,
      studyId,
      username,
    );
  const goldItems = (studyId: number) =>
    new Set(
      read<{ id: number }>(`SELECT id FROM study_items WHERE study_id = ? AND is_gold = 1`, studyId).map((r) => r.id),
    );
  /** The item on screen once it takes answers. */
  const onScreen = async (page: Page) => {
    const frame = page.locator('[data-testid="task-page"]:not([data-busy])');
    await frame.waitFor();
    await page.waitForLoadState("networkidle");
    return Number(await frame.getAttribute("data-item"));
  };
  /** Presses `key` (a submit) and waits for another item to be on screen and ready. */
  const submitWith = async (page: Page, key: string, from: number) => {
    await page.keyboard.press(key);
    await page.locator(`[data-testid="task-page"]:not([data-busy]):not([data-item="${from}"])`).waitFor();
    return onScreen(page);
  };
  const abSection = (page: Page) => page.locator('section.hotkey-settings[data-task-type="ab-reactiveness"]');
  const consensusSection = (page: Page) => page.locator('section.hotkey-settings[data-task-type="consensus-snippet"]');

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const db = await openDatabase(server.dbPath);
    keysStudy = await createAbStudy(db, { name: "Own keys", pool: "expert" });
    const gold = { seed: 4, goldRate: 0.5 };
    feedbackStudy = await createAbStudy(db, {
      name: "Gold feedback",
      pool: "expert",
      config: { ...gold, goldFeedback: true },
    });
    quietStudy = await createAbStudy(db, { name: "Plain A/B", pool: "expert", config: gold });
    consensusStudy = await createConsensusStudy(db, { name: "Own consensus keys", pool: "expert", trajectories: 1 });
    db.$client.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("keys rebound on the settings page answer and submit; the old ones do nothing; hints and cheat sheet show them", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ben);
    await page.goto(`${server.url}/annotate/settings`);
    const ab = abSection(page);
    await ab.getByLabel("Choose conversation A").fill("q");
    await ab.getByLabel("Choose conversation B").fill("w");
    await ab.getByLabel("Submit and go to the next item").fill("x");
    await ab.getByRole("button", { name: "Save keys for A/B reactiveness" }).click();
    await page.getByTestId("settings-status").getByText("Saved: your keys for A/B reactiveness.").waitFor();
    expect(hotkeysOf("ben")).toEqual({ "ab-reactiveness": { chooseA: ["q"], chooseB: ["w"], submit: ["x"] } });
    expect(await ab.getByLabel("Choose conversation A").inputValue()).toBe("q");

    await page.goto(`${server.url}/annotate/${keysStudy}/next`);
    const first = await onScreen(page);
    const radioA = page.getByRole("radio", { name: "A is more reactive" });
    expect(await radioA.locator("kbd").textContent()).toBe("q");
    expect(await radioA.getAttribute("aria-keyshortcuts")).toBe("q");
    expect(
      await page
        .getByRole("button", { name: /^Submit and next/ })
        .locator("kbd")
        .textContent(),
    ).toBe("x");

    // The old keys: no choice, no submit.
    await page.keyboard.press("1");
    await page.keyboard.press("a");
    await page.keyboard.press("Enter");
    await page.waitForLoadState("networkidle");
    expect(await radioA.getAttribute("aria-checked")).toBe("false");
    expect(choicesIn(keysStudy, "ben")).toEqual([]);
    expect(await onScreen(page)).toBe(first);

    // The cheat sheet lists the new keys and not the old ones.
    await page.keyboard.press("?");
    const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    const keysOfRow = (text: string) => sheet.locator("tr", { hasText: text }).locator("th").textContent();
    expect(await keysOfRow("Choose conversation A")).toBe("q");
    expect(await keysOfRow("Choose conversation B")).toBe("w");
    expect(await keysOfRow("Submit and go to the next item")).toBe("x");
    expect(await keysOfRow("Skip this item")).toBe("s");
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "hidden" });

    await page.keyboard.press("w");
    expect(await page.getByRole("radio", { name: "B is more reactive" }).getAttribute("aria-checked")).toBe("true");
    const second = await submitWith(page, "x", first);
    await page.keyboard.press("q");
    await submitWith(page, "x", second);
    expect(choicesIn(keysStudy, "ben")).toEqual([
      { itemId: first, choice: "B" },
      { itemId: second, choice: "A" },
    ]);
    await page.close();
  });

  it("consensus: scores on keys of one's own (by place) and a new submit key; the old ones do nothing", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ada);
    await page.goto(`${server.url}/annotate/settings`);
    const consensus = consensusSection(page);
    await consensus.getByLabel(/^Agreement score of the focused topic/).fill("q w t y z");
    await consensus.getByLabel("Submit and go to the next item").fill("Shift+Enter");
    await consensus.getByRole("button", { name: "Save keys for Snippet consensus" }).click();
    await page.getByTestId("settings-status").getByText("Saved: your keys for Snippet consensus.").waitFor();
    expect(hotkeysOf("ada")).toEqual({
      "consensus-snippet": { score: ["q", "w", "t", "y", "z"], submit: ["Shift+Enter"] },
    });

    await page.goto(`${server.url}/annotate/${consensusStudy}/next`);
    const first = await onScreen(page);
    expect(
      await page
        .getByRole("button", { name: /^Submit and next/ })
        .locator("kbd")
        .textContent(),
    ).toBe("Shift + Enter");
    const cards = page.locator("fieldset.topic-card");
    const parties = await cards.first().locator(".position-row").count();
    const topics = await cards.count();
    // Every party "not stated"; scores 2, 3, … by the keys in second, third… place; the old digit key after each
    // changes nothing.
    for (let topic = 0; topic < topics; topic++) {
      for (let party = 0; party < parties; party++) await page.keyboard.press("n");
      await page.keyboard.press("qwtyz"[(topic + 1) % 5]);
      await page.keyboard.press("1");
      await page.keyboard.press("j");
    }
    await page.keyboard.press("Control+Enter");
    await page.waitForLoadState("networkidle");
    expect(await onScreen(page)).toBe(first);
    await submitWith(page, "Shift+Enter", first);
    const stored = read<{ payload: string }>(
      `SELECT r.payload FROM labels l JOIN label_revisions r ON r.label_id = l.id
       JOIN annotators n ON n.id = l.annotator_id WHERE l.study_item_id = ? AND n.username = 'ada'`,
      first,
    ).map((r) => JSON.parse(r.payload) as { topics: Record<string, { score: number }> });
    expect(stored).toHaveLength(1);
    expect(Object.values(stored[0].topics).map((t) => t.score)).toEqual(
      Array.from({ length: topics }, (_, i) => ((i + 1) % 5) + 1),
    );
    await page.close();
  });

  it("a key given to two commands is refused at both fields and stores nothing; reset gives the defaults back", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ben);
    await page.goto(`${server.url}/annotate/settings`);
    const before = hotkeysOf("ben");
    const consensus = consensusSection(page);
    await consensus.getByLabel(/^Skip this item/).fill("j");
    await consensus.getByRole("button", { name: "Save keys for Snippet consensus" }).click();
    await page
      .getByTestId("settings-error")
      .getByText("Your keys for Snippet consensus were not saved: 2 problems, marked below.")
      .waitFor();
    const skip = consensus.getByLabel(/^Skip this item/);
    expect(await skip.getAttribute("aria-invalid")).toBe("true");
    expect(await skip.inputValue()).toBe("j");
    const skipError = page.locator(`[id="${await skip.getAttribute("aria-describedby")}"]`);
    expect(await skipError.textContent()).toBe('j is also the key of "Next topic": a key can do one thing only.');
    expect(await consensus.getByLabel("Next topic").getAttribute("aria-invalid")).toBe("true");
    // The other type's form shows no problem.
    expect(await abSection(page).locator('[aria-invalid="true"]').count()).toBe(0);
    expect(hotkeysOf("ben")).toEqual(before);
    expect(describeViolations(await axeViolations(page))).toBe("");

    await abSection(page).getByRole("button", { name: "Reset A/B reactiveness to defaults" }).click();
    await page.getByTestId("settings-status").getByText("A/B reactiveness is back to the default keys").waitFor();
    expect(hotkeysOf("ben")).toEqual({});
    // The form starts over from what is stored once the page's data is read again.
    await expect.poll(() => abSection(page).getByLabel("Choose conversation A").inputValue()).toBe("1 a");
    expect(await abSection(page).getByLabel("Submit and go to the next item").inputValue()).toBe("Enter Ctrl+Enter");
    await page.close();
  });

  it("gold feedback after a gold item where the study enables it: matched or not, what was expected; dismissable, gone on the next item", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ada);
    const gold = goldItems(feedbackStudy);
    await page.goto(`${server.url}/annotate/${feedbackStudy}/next`);
    let item = await onScreen(page);
    const feedback = page.getByTestId("gold-feedback");
    expect(await feedback.getAttribute("role")).toBe("status");
    // Answer "A" until a gold item has been submitted; every page before that shows no feedback.
    let answered = item;
    for (;;) {
      expect(await feedback.textContent()).toBe("");
      await page.keyboard.press("1");
      answered = item;
      item = await submitWith(page, "Enter", item);
      if (gold.has(answered)) break;
    }
    expect(new URL(page.url()).searchParams.get("gold")).toBe(String(answered));
    const expected = read<{ a: number; b: number }>(
      `SELECT p.level_a AS a, p.level_b AS b FROM study_items i JOIN ab_pairs p ON p.id = i.ab_pair_id WHERE i.id = ?`,
      answered,
    ).map((p) => (p.a > p.b ? "A" : "B"))[0];
    await feedback.getByText(/Your answer on the last item (matched|did not match) its known answer\./).waitFor();
    const text = await feedback.textContent();
    expect(text).toContain(expected === "A" ? "matched its known answer" : "did not match its known answer");
    expect(text).toContain(`Expected: conversation ${expected}, where`);
    expect(text).toContain("You chose conversation A.");
    // The feedback passes the same accessibility audit as every page (accessibility.test.ts).
    expect(describeViolations(await axeViolations(page))).toBe("");

    await feedback.getByRole("button", { name: "Dismiss" }).click();
    expect(await feedback.textContent()).toBe("");
    // The next item (a regular one, or a gold one with feedback of its own) no longer shows this item's feedback.
    await page.keyboard.press("2");
    const next = await submitWith(page, "Enter", item);
    expect(next).not.toBe(item);
    const now = await feedback.textContent();
    if (gold.has(item)) expect(now).toContain("You chose conversation B.");
    else expect(now).toBe("");
    await page.close();
  });

  it("no gold feedback, and no gold item named, on a study without the setting", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ada);
    const gold = goldItems(quietStudy);
    await page.goto(`${server.url}/annotate/${quietStudy}/next`);
    let item = await onScreen(page);
    let goldSeen = 0;
    // Past two gold items (wrong answers included: "2" where "A" was expected).
    while (goldSeen < 2) {
      await page.keyboard.press("2");
      const answered = item;
      item = await submitWith(page, "Enter", item);
      if (gold.has(answered)) goldSeen++;
      expect(new URL(page.url()).search).toBe("");
      expect(await page.getByTestId("gold-feedback").textContent()).toBe("");
      expect(await page.locator("main").textContent()).not.toMatch(/gold|known answer|check item/i);
    }
    await page.close();
  });
});
