/**
 * `mturk publish` against a mocked MTurk client (aws-sdk-client-mock; nothing reaches the
 * network) on a seeded demo database: what is sent (qualification test and key, worker filters,
 * one ExternalQuestion HIT per item still needing labels), to which endpoint, and that a rerun
 * or an interrupted run never creates a HIT twice.
 */
import {
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  CreateQualificationTypeCommand,
  ListHITsCommand,
  ListQualificationTypesCommand,
  MTurkClient,
  RequestError,
  type CreateHITWithHITTypeCommandInput,
} from "@aws-sdk/client-mturk";
import { mockClient } from "aws-sdk-client-mock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SYSTEM_QUALIFICATIONS } from "../../../app/domain/crowd/hit-config.ts";
import { answerKeyXml, questionFormXml } from "../../../app/domain/crowd/qualification-xml.ts";
import { qualificationKey } from "../../../app/domain/qualification.ts";
import { seedDemoStudies } from "../../../demo/studies.ts";
import {
  MISSING_CREDENTIALS_HELP,
  MTURK_ENDPOINTS,
  MturkEndpointError,
  mturkClient,
} from "../../../app/crowd-channels/mturk/client.server.ts";
import { hitRequestToken, publishStudy } from "../../../app/crowd-channels/mturk/publish.server.ts";
import { loadQualificationTest } from "../../../app/server/templates.server.ts";
import { UserError } from "../../../scripts/cli-kit.ts";
import { publishAction, type PublishOptionValues } from "../../../app/crowd-channels/mturk/command/publish.server.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { runCli } from "../../helpers/cli.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";

const SANDBOX_HOST = new URL(MTURK_ENDPOINTS.sandbox).hostname;
const PRODUCTION_HOST = new URL(MTURK_ENDPOINTS.production).hostname;
const BASE_URL = "https://studio.example.org";
const QUAL_ID = "3QUALTYPE0000000000000000000AA";
const HIT_TYPE_ID = "3HITTYPE00000000000000000000BB";
const HIT_GROUP_ID = "3HITGROUP0000000000000000000CC";

const mturk = mockClient(MTurkClient);

/** MTurk's answers: a qualification type, a HIT type, and a fresh HIT id per created HIT. */
function respondLikeMturk(): void {
  let n = 0;
  mturk.on(CreateQualificationTypeCommand).resolves({ QualificationType: { QualificationTypeId: QUAL_ID } });
  mturk.on(CreateHITTypeCommand).resolves({ HITTypeId: HIT_TYPE_ID });
  mturk.on(CreateHITWithHITTypeCommand).callsFake((input: CreateHITWithHITTypeCommandInput) => ({
    HIT: {
      HITId: `HIT${String(++n).padStart(27, "0")}`,
      HITTypeId: input.HITTypeId,
      HITGroupId: HIT_GROUP_ID,
      Expiration: new Date(Date.now() + (input.LifetimeInSeconds ?? 0) * 1000),
    },
  }));
}

/** The host of the client instance each recorded call was sent through. */
async function hostsOfCalls(): Promise<string[]> {
  return Promise.all(
    mturk.calls().map(async (call) => (await (call.thisValue as MTurkClient).config.endpoint!()).hostname),
  );
}

const hitInputs = () => mturk.commandCalls(CreateHITWithHITTypeCommand).map((c) => c.args[0].input);
const itemOfUrl = (question: string) => Number(/item=(\d+)<\/ExternalURL>/.exec(question)?.[1]);

describe("mturk publish (mocked MTurk client)", async () => {
  const t = await tempDb();
  const lines: string[] = [];
  let consensusStudy = 0;
  let abStudy = 0;
  let expertStudy = 0;
  /** Items of the crowd consensus study with fewer than 3 labels, counted with plain SQL. */
  let needing: number[] = [];
  const run = (opts: Partial<PublishOptionValues>) =>
    publishAction(
      { study: String(consensusStudy), baseUrl: BASE_URL, ...opts },
      { openDb: () => t.db, print: (line) => lines.push(line) },
    );

  beforeAll(async () => {
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    const studies = t.db.$client.prepare(`SELECT id, type, pool FROM studies ORDER BY id`).all() as {
      id: number;
      type: string;
      pool: string;
    }[];
    consensusStudy = studies.find((s) => s.type === "consensus-snippet" && s.pool === "crowd")!.id;
    abStudy = studies.find((s) => s.type === "ab-reactiveness")!.id;
    expertStudy = studies.find((s) => s.pool === "expert")!.id;
    needing = (
      t.db.$client
        .prepare(
          `SELECT i.id FROM study_items i WHERE i.study_id = ? AND (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) < 3 ORDER BY i.position`,
        )
        .all(consensusStudy) as { id: number }[]
    ).map((r) => r.id);
  });
  afterAll(() => t.cleanup());
  beforeEach(() => {
    mturk.reset();
    respondLikeMturk();
    lines.length = 0;
    t.db.$client.exec(`DELETE FROM mturk_hits; DELETE FROM mturk_qualification_types;`);
  });

  it("sends the qualification test, the worker filters and one ExternalQuestion HIT per item needing labels, all to the sandbox", async () => {
    expect(needing.length).toBeGreaterThan(0);
    const summary = await run({});
    const test = loadQualificationTest();

    const [qual] = mturk.commandCalls(CreateQualificationTypeCommand).map((c) => c.args[0].input);
    expect(mturk.commandCalls(CreateQualificationTypeCommand)).toHaveLength(1);
    expect(qual.Test).toBe(questionFormXml(test));
    expect(qual.AnswerKey).toBe(answerKeyXml(test));
    expect(qual.Name).toContain(qualificationKey(test));
    expect(qual.QualificationTypeStatus).toBe("Active");
    expect(qual.TestDurationInSeconds).toBeGreaterThan(0);
    expect(qual.RetryDelayInSeconds).toBeGreaterThan(0);

    const [hitType] = mturk.commandCalls(CreateHITTypeCommand).map((c) => c.args[0].input);
    expect(hitType.QualificationRequirements).toEqual([
      {
        QualificationTypeId: SYSTEM_QUALIFICATIONS.percentAssignmentsApproved,
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [98],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: SYSTEM_QUALIFICATIONS.numberHitsApproved,
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [1000],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: SYSTEM_QUALIFICATIONS.locale,
        Comparator: "EqualTo",
        LocaleValues: [{ Country: "US" }],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: QUAL_ID,
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [80],
        ActionsGuarded: "Accept",
      },
    ]);
    expect(hitType.Reward).toMatch(/^\d+\.\d\d$/);
    expect(Number(hitType.Reward)).toBe(summary.settings.rewardUsd);
    expect(hitType.Title).toBe(summary.settings.title);

    const hits = hitInputs();
    expect(hits.map((h) => itemOfUrl(h.Question!))).toEqual(needing);
    for (const h of hits) {
      const item = itemOfUrl(h.Question!);
      expect(h.HITTypeId).toBe(HIT_TYPE_ID);
      expect(h.MaxAssignments).toBe(3);
      expect(h.Question).toContain(
        `<ExternalURL>${BASE_URL}/mturk/task?study=${consensusStudy}&amp;item=${item}</ExternalURL>`,
      );
      expect(h.Question).toContain("ExternalQuestion.xsd");
      expect(h.RequesterAnnotation).toContain(`study ${consensusStudy} item ${item}`);
      expect(h.UniqueRequestToken!.length).toBeLessThanOrEqual(64);
      expect(h.LifetimeInSeconds).toBe(summary.settings.lifetimeSeconds);
    }
    expect(new Set(hits.map((h) => h.UniqueRequestToken)).size).toBe(hits.length);

    expect(await hostsOfCalls()).toEqual(mturk.calls().map(() => SANDBOX_HOST));
    const stored = t.db.$client
      .prepare(
        `SELECT study_item_id AS item, environment, hit_type_id AS type, max_assignments AS k FROM mturk_hits ORDER BY rowid`,
      )
      .all();
    expect(stored).toEqual(needing.map((item) => ({ item, environment: "sandbox", type: HIT_TYPE_ID, k: 3 })));
    expect(
      t.db.$client
        .prepare(`SELECT qualification_type_id AS id, environment, test_key AS key FROM mturk_qualification_types`)
        .all(),
    ).toEqual([{ id: QUAL_ID, environment: "sandbox", key: qualificationKey(test) }]);

    const out = lines.join("\n");
    expect(out).toMatch(/^SANDBOX: study/);
    expect(out).toContain(QUAL_ID);
    expect(out).toContain(`HIT type: ${HIT_TYPE_ID}`);
    expect(out).toContain(`HITs created: ${needing.length}`);
    expect(out).toMatch(/estimated cost: \$[\d.]+ rewards \+ \$[\d.]+ MTurk fees = \$[\d.]+/);
    expect(out).toMatch(/hourly wage: \$[\d.]+\/h/);
    expect(out).toContain(
      `preview the HIT group: https://workersandbox.mturk.com/mturk/preview?groupId=${HIT_GROUP_ID}`,
    );
  });

  it("stays on the sandbox when AWS_ENDPOINT_URL and AWS_ENDPOINT_URL_MTURK name production", async () => {
    const saved = { all: process.env.AWS_ENDPOINT_URL, mturk: process.env.AWS_ENDPOINT_URL_MTURK };
    process.env.AWS_ENDPOINT_URL = MTURK_ENDPOINTS.production;
    process.env.AWS_ENDPOINT_URL_MTURK = MTURK_ENDPOINTS.production;
    try {
      await run({});
      expect(mturk.calls().length).toBe(needing.length + 2);
      expect(new Set(await hostsOfCalls())).toEqual(new Set([SANDBOX_HOST]));
    } finally {
      for (const [key, value] of [
        ["AWS_ENDPOINT_URL", saved.all],
        ["AWS_ENDPOINT_URL_MTURK", saved.mturk],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("uses the production endpoint only with --production, and keeps the environments apart", async () => {
    await run({});
    const sandboxHits = hitInputs().length;
    mturk.resetHistory();
    lines.length = 0;
    await run({ production: true });
    expect(new Set(await hostsOfCalls())).toEqual(new Set([PRODUCTION_HOST]));
    // Production has its own qualification type and HITs; the sandbox's do not count there.
    expect(mturk.commandCalls(CreateQualificationTypeCommand)).toHaveLength(1);
    expect(hitInputs()).toHaveLength(sandboxHits);
    expect(lines[0]).toMatch(/^PRODUCTION: study/);
    expect(lines.join("\n")).toContain(`https://worker.mturk.com/mturk/preview?groupId=${HIT_GROUP_ID}`);
    const byEnv = t.db.$client
      .prepare(`SELECT environment, count(*) AS n FROM mturk_hits GROUP BY environment ORDER BY environment`)
      .all();
    expect(byEnv).toEqual([
      { environment: "production", n: needing.length },
      { environment: "sandbox", n: needing.length },
    ]);
  });

  it("refuses, before sending anything, a client that does not point at the sandbox when production was not asked for", async () => {
    const makeProduction = () => mturkClient({ production: true });
    await expect(
      publishAction(
        { study: String(consensusStudy), baseUrl: BASE_URL },
        { openDb: () => t.db, makeClient: makeProduction, print: () => {} },
      ),
    ).rejects.toThrow(/not the sandbox endpoint/);
    // A client the SDK would route itself (its default is production) is refused too.
    await expect(
      publishStudy(t.db, new MTurkClient({ region: "us-east-1" }), {
        studyId: consensusStudy,
        baseUrl: BASE_URL,
        production: false,
      }),
    ).rejects.toThrow(MturkEndpointError);
    expect(mturk.calls()).toHaveLength(0);
    expect(t.db.$client.prepare(`SELECT count(*) AS n FROM mturk_hits`).get()).toEqual({ n: 0 });
  });

  it("creates nothing new on a rerun and reuses the stored qualification type", async () => {
    await run({});
    const first = hitInputs().length;
    mturk.resetHistory();
    lines.length = 0;
    const again = await run({});
    expect(first).toBe(needing.length);
    expect(mturk.calls()).toHaveLength(0);
    expect(again.hits).toEqual([]);
    expect(lines.join("\n")).toContain("every item that needs labels already has a HIT");
    expect(t.db.$client.prepare(`SELECT count(*) AS n FROM mturk_hits`).get()).toEqual({ n: needing.length });

    // A publish with new items to do reuses the stored qualification type instead of creating one.
    t.db.$client.prepare(`DELETE FROM mturk_hits WHERE study_item_id = ?`).run(needing[0]);
    await run({});
    expect(mturk.commandCalls(CreateQualificationTypeCommand)).toHaveLength(0);
    expect(hitInputs().map((h) => itemOfUrl(h.Question!))).toEqual([needing[0]]);
    expect(
      mturk.commandCalls(CreateHITTypeCommand)[0].args[0].input.QualificationRequirements?.at(-1)?.QualificationTypeId,
    ).toBe(QUAL_ID);
  });

  it("publishes a new batch for an item whose HIT expired short of labels, with a new request token", async () => {
    await run({});
    const stored = t.db.$client
      .prepare(`SELECT expires_at AS e FROM mturk_hits WHERE study_item_id = ?`)
      .get(needing[1]) as { e: string };
    // MTurk's Expiration is kept: lifetime 7 days from now.
    expect(Date.parse(stored.e) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    mturk.resetHistory();
    t.db.$client
      .prepare(`UPDATE mturk_hits SET expires_at = '2000-01-01T00:00:00.000Z' WHERE study_item_id = ?`)
      .run(needing[1]);
    const again = await run({});
    expect(again.hits.map((h) => h.itemId)).toEqual([needing[1]]);
    const study = t.db.$client
      .prepare(`SELECT id, created_at AS createdAt FROM studies WHERE id = ?`)
      .get(consensusStudy) as { id: number; createdAt: string };
    expect(hitInputs()[0].UniqueRequestToken).toBe(hitRequestToken("sandbox", study, needing[1], 1));
    expect(
      t.db.$client.prepare(`SELECT count(*) AS n FROM mturk_hits WHERE study_item_id = ?`).get(needing[1]),
    ).toEqual({ n: 2 });
  });

  it("resumes an interrupted publish with the same request tokens, and records a HIT MTurk already has for a token", async () => {
    let created = 0;
    mturk.on(CreateHITWithHITTypeCommand).callsFake((input: CreateHITWithHITTypeCommandInput) => {
      if (++created === 3) throw new RequestError({ message: "Service unavailable, try again", $metadata: {} });
      return { HIT: { HITId: `HITA${created}`, HITTypeId: input.HITTypeId } };
    });
    await expect(run({})).rejects.toThrow(/item \d+ failed .*2 HIT\(s\) created before it are stored/);
    expect(t.db.$client.prepare(`SELECT study_item_id AS item FROM mturk_hits ORDER BY rowid`).all()).toEqual(
      needing.slice(0, 2).map((item) => ({ item })),
    );
    const tokens = new Map(hitInputs().map((h) => [itemOfUrl(h.Question!), h.UniqueRequestToken]));

    // The rerun: the item whose create failed actually went through on MTurk (the reply was lost).
    mturk.reset();
    respondLikeMturk();
    const lostItem = needing[2];
    const lostToken = tokens.get(lostItem)!;
    mturk.on(CreateHITWithHITTypeCommand, { UniqueRequestToken: lostToken }).rejects(
      new RequestError({
        message: `AWS.MechanicalTurk.HitAlreadyExists: a HIT with this token already exists`,
        $metadata: {},
      }),
    );
    mturk
      .on(ListHITsCommand)
      .resolvesOnce({
        HITs: [{ HITId: "HITOTHER", HITTypeId: "X", RequesterAnnotation: "someone else's" }],
        NextToken: "page2",
      })
      .resolves({
        HITs: [
          {
            HITId: "HITLOST",
            HITTypeId: HIT_TYPE_ID,
            RequesterAnnotation: `SoCRATES study ${consensusStudy} item ${lostItem} batch 0 [${lostToken}]`,
          },
        ],
      });
    const summary = await run({});
    const rerun = hitInputs();
    expect(rerun.map((h) => itemOfUrl(h.Question!))).toEqual(needing.slice(2));
    expect(rerun[0].UniqueRequestToken).toBe(lostToken);
    expect(mturk.commandCalls(ListHITsCommand)[1].args[0].input.NextToken).toBe("page2");
    expect(summary.hits.find((h) => h.itemId === lostItem)).toMatchObject({ hitId: "HITLOST", recovered: true });
    const stored = t.db.$client
      .prepare(`SELECT study_item_id AS item, hit_id AS hit FROM mturk_hits ORDER BY study_item_id`)
      .all() as { item: number; hit: string }[];
    expect(stored.map((s) => s.item)).toEqual([...needing].sort((a, b) => a - b));
    expect(stored.find((s) => s.item === lostItem)?.hit).toBe("HITLOST");
    // The token is a function of (environment, study, item, batch) alone.
    const study = t.db.$client
      .prepare(`SELECT id, created_at AS createdAt FROM studies WHERE id = ?`)
      .get(consensusStudy) as { id: number; createdAt: string };
    expect(hitRequestToken("sandbox", study, lostItem, 0)).toBe(lostToken);
    expect(hitRequestToken("production", study, lostItem, 0)).not.toBe(lostToken);
  });

  it("finds its qualification type on MTurk when the name is taken (created earlier but not recorded here)", async () => {
    const test = loadQualificationTest();
    mturk
      .on(CreateQualificationTypeCommand)
      .rejects(
        new RequestError({ message: "You have already created a QualificationType with this name.", $metadata: {} }),
      );
    mturk.on(ListQualificationTypesCommand).resolves({
      QualificationTypes: [
        { QualificationTypeId: "3OLDQUAL", Name: `SoCRATES reading test (${qualificationKey(test)})` },
      ],
    });
    const summary = await run({});
    expect(summary.qualificationTypeId).toBe("3OLDQUAL");
    expect(summary.qualificationTypeSource).toBe("found on MTurk");
    expect(mturk.commandCalls(ListQualificationTypesCommand)[0].args[0].input).toMatchObject({
      MustBeOwnedByCaller: true,
      Query: `SoCRATES reading test (${qualificationKey(test)})`,
    });
    expect(
      t.db.$client
        .prepare(`SELECT qualification_type_id AS id FROM mturk_qualification_types WHERE environment = 'sandbox'`)
        .all(),
    ).toEqual([{ id: "3OLDQUAL" }]);
    expect(
      mturk.commandCalls(CreateHITTypeCommand)[0].args[0].input.QualificationRequirements?.at(-1)?.QualificationTypeId,
    ).toBe("3OLDQUAL");
  });

  it("dry run: sends nothing, stores nothing, builds no client, and says what it would create", async () => {
    const before = await tableCounts(t.db);
    let clients = 0;
    const summary = await publishAction(
      { study: String(consensusStudy), baseUrl: BASE_URL, dryRun: true },
      { openDb: () => t.db, makeClient: () => (clients++, mturkClient()), print: (l) => lines.push(l) },
    );
    expect(clients).toBe(0);
    expect(mturk.calls()).toHaveLength(0);
    expect(await tableCounts(t.db)).toEqual(before);
    expect(summary.hits.map((h) => h.itemId)).toEqual(needing);
    expect(summary.hits.every((h) => h.hitId === null)).toBe(true);
    expect(lines[0]).toMatch(/^SANDBOX \(dry run/);
    expect(lines.join("\n")).toContain(`HITs to create: ${needing.length}`);
  });

  it("publishes nothing for a study whose items all have their labels (the demo A/B study)", async () => {
    const summary = await run({ study: String(abStudy) });
    expect(summary.itemsNeedingLabels).toBe(0);
    expect(mturk.calls()).toHaveLength(0);
    expect(lines.join("\n")).toContain("every item has its labels");
  });

  it("refuses bad input with a UserError and sends nothing", async () => {
    const cases: [Partial<PublishOptionValues>, RegExp][] = [
      [{ baseUrl: "http://studio.example.org" }, /must be an https address/],
      [{ baseUrl: "studio.example.org" }, /is not a URL/],
      [{ baseUrl: "https://studio.example.org/?x=1" }, /without query/],
      [{ study: "two" }, /--study must be a whole number/],
      [{ study: "999" }, /Study 999 does not exist/],
      [{ study: String(expertStudy) }, /only crowd studies go to Mechanical Turk/],
      [{ frameHeight: "-5" }, /--frame-height must be a whole number/],
      [{ reward: "0.01" }, /below the U.S. federal minimum wage/],
      [{ locale: "usa" }, /locale/],
    ];
    for (const [opts, message] of cases) {
      const attempt = run(opts);
      await expect(attempt, JSON.stringify(opts)).rejects.toThrow(UserError);
      await expect(attempt, JSON.stringify(opts)).rejects.toThrow(message);
    }
    expect(mturk.calls()).toHaveLength(0);
    // --force lets a low reward through, and says so.
    await run({ reward: "0.01", force: true });
    expect(lines.join("\n")).toMatch(/WARNING: .*below the U.S. federal minimum wage/);
  });

  it("explains missing AWS credentials", async () => {
    const noCredentials = Object.assign(new Error("Could not load credentials from any providers"), {
      name: "CredentialsProviderError",
    });
    mturk.on(CreateQualificationTypeCommand).rejects(noCredentials);
    await expect(run({})).rejects.toThrow(MISSING_CREDENTIALS_HELP);
  });
});

describe("the client's own host check (no mock: the request handler stands where the network would be)", () => {
  afterEach(() => mturk.reset());

  async function sendThrough(client: MTurkClient): Promise<{ error: unknown; hosts: string[] }> {
    mturk.restore();
    const hosts: string[] = [];
    const config = client.config as unknown as { requestHandler: unknown; credentials: unknown };
    config.credentials = async () => ({ accessKeyId: "AKIDEXAMPLE", secretAccessKey: "not-a-secret" });
    config.requestHandler = {
      handle: async (request: { hostname: string }) => {
        hosts.push(request.hostname);
        throw new Error("stopped at the request handler");
      },
    };
    try {
      await client.send(
        new CreateHITTypeCommand({ Title: "t", Description: "d", Reward: "0.50", AssignmentDurationInSeconds: 60 }),
      );
      return { error: null, hosts };
    } catch (error) {
      return { error, hosts };
    }
  }

  it("lets a sandbox request through to the handler with the sandbox host", async () => {
    const { error, hosts } = await sendThrough(mturkClient());
    expect((error as Error).message).toMatch(/stopped at the request handler/);
    expect(hosts).toEqual([SANDBOX_HOST]);
  });

  it("refuses a request whose endpoint was changed behind its back, before signing or sending it", async () => {
    const client = mturkClient();
    (client.config as unknown as { endpoint: unknown }).endpoint = async () => ({
      hostname: PRODUCTION_HOST,
      protocol: "https:",
      path: "/",
    });
    const { error, hosts } = await sendThrough(client);
    expect(error).toBeInstanceOf(MturkEndpointError);
    expect(hosts).toEqual([]);
  });
});

describe("the real CLI", async () => {
  const t = await tempDb();
  afterAll(() => t.cleanup());

  it("documents the command and exits 2 on a non-https base URL", () => {
    const help = runCli(["mturk", "publish", "--help"]);
    expect(help.status).toBe(0);
    for (const flag of [
      "--study",
      "--base-url",
      "--production",
      "--dry-run",
      "--frame-height",
      "--reward",
      "--min-approval-rate",
    ])
      expect(help.stdout).toContain(flag);
    const bad = runCli(["mturk", "publish", "--study", "1", "--base-url", "http://studio.example.org"], {
      SOCRATES_DB: t.path,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("must be an https address");
    const syncHelp = runCli(["mturk", "sync", "--help"]);
    expect(syncHelp.status).toBe(0);
    expect(syncHelp.stdout).toContain("--dry-run");
  });
});
