/** The HIT options `mturk export` and `mturk publish` share, and their parsing into overrides. */
import type { Command } from "commander";
import type { HitOverrides } from "../hit-settings.server.ts";
import { parseIntOption, UserError } from "../../../../scripts/cli-kit.ts";

export interface HitOptionValues {
  reward?: string;
  secondsPerItem?: string;
  title?: string;
  description?: string;
  keywords?: string;
  assignmentDuration?: string;
  lifetime?: string;
  autoApprovalDelay?: string;
  minApprovalRate?: string;
  minApprovedHits?: string;
  locale?: string;
  minQualificationScore?: string;
  qualificationTypeId?: string;
  force?: boolean;
}

export function addHitOptions(command: Command): Command {
  return command
    .option("--reward <usd>", "reward per assignment in USD (default: $12/h at the estimated pace)")
    .option(
      "--seconds-per-item <n>",
      "pace for the cost and wage estimate (default: the study's median seconds per label)",
    )
    .option("--title <text>", "HIT title")
    .option("--description <text>", "HIT description")
    .option("--keywords <list>", "comma-separated keywords")
    .option("--assignment-duration <seconds>", "time a worker has for one assignment (default 3600)")
    .option("--lifetime <seconds>", "how long the HITs stay available (default 604800 = 7 days)")
    .option(
      "--auto-approval-delay <seconds>",
      "submitted work is approved automatically after this (default 259200 = 3 days)",
    )
    .option("--min-approval-rate <percent>", "workers' least PercentAssignmentsApproved (default 98)")
    .option("--min-approved-hits <n>", "workers' least NumberHITsApproved (default 1000)")
    .option("--locale <country>", "workers' country, ISO 3166 code (default US)")
    .option("--min-qualification-score <percent>", "least score on the qualification test (default 80)")
    .option("--qualification-type-id <id>", "the test's qualification type on MTurk, if it already exists")
    .option("--force", "go ahead even when the reward pays below the federal minimum wage");
}

function parseMoney(raw: string): number {
  const n = Number(raw.replace(/^\$/, ""));
  if (!Number.isFinite(n) || n <= 0)
    throw new UserError(`--reward must be an amount in USD such as 0.50, got "${raw}"`);
  return Math.round(n * 100) / 100;
}

export function hitOverrides(o: HitOptionValues): HitOverrides {
  const int = (name: string, raw: string | undefined, min: number, max?: number) =>
    raw === undefined ? undefined : parseIntOption(name, raw, min, max);
  return {
    rewardUsd: o.reward === undefined ? undefined : parseMoney(o.reward),
    secondsPerItem: int("seconds-per-item", o.secondsPerItem, 1, 86_400),
    title: o.title,
    description: o.description,
    keywords: o.keywords
      ?.split(",")
      .map((k) => k.trim())
      .filter(Boolean),
    assignmentDurationSeconds: int("assignment-duration", o.assignmentDuration, 30),
    lifetimeSeconds: int("lifetime", o.lifetime, 30),
    autoApprovalDelaySeconds: int("auto-approval-delay", o.autoApprovalDelay, 0),
    minPercentApproved: int("min-approval-rate", o.minApprovalRate, 0, 100),
    minApprovedHits: int("min-approved-hits", o.minApprovedHits, 0),
    locale: o.locale?.toUpperCase(),
    minQualificationScore: int("min-qualification-score", o.minQualificationScore, 0, 100),
    qualificationTypeId: o.qualificationTypeId ?? null,
  };
}
