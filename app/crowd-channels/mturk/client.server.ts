/**
 * The Mechanical Turk API client for `mturk publish` and `mturk sync`. The sandbox is the
 * default and production must be asked for: the endpoint is always set explicitly (so an
 * AWS_ENDPOINT_URL* variable or a profile's endpoint cannot redirect it), every command goes
 * through `checkedSend`, which checks the client's resolved endpoint against the environment
 * first, and the client itself refuses to sign a request for any other host.
 */
import { MTurkClient } from "@aws-sdk/client-mturk";

export type MturkEnvironment = "sandbox" | "production";

export const MTURK_REGION = "us-east-1";

export const MTURK_ENDPOINTS: Record<MturkEnvironment, string> = {
  sandbox: "https://mturk-requester-sandbox.us-east-1.amazonaws.com",
  production: "https://mturk-requester.us-east-1.amazonaws.com",
};

/** Where workers (and the requester, to preview) see the HITs. */
export const MTURK_WORKER_SITES: Record<MturkEnvironment, string> = {
  sandbox: "https://workersandbox.mturk.com",
  production: "https://worker.mturk.com",
};

export const environmentOf = (production: boolean): MturkEnvironment => (production ? "production" : "sandbox");

const hostOf = (environment: MturkEnvironment): string => new URL(MTURK_ENDPOINTS[environment]).hostname;

/** The worker-site page previewing a HIT group (HITGroupId, as MTurk returns it with each HIT). */
export function hitGroupUrl(environment: MturkEnvironment, hitGroupId: string): string {
  return `${MTURK_WORKER_SITES[environment]}/mturk/preview?groupId=${encodeURIComponent(hitGroupId)}`;
}

export class MturkEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MturkEndpointError";
  }
}

/**
 * A client for one environment. Credentials come from the AWS SDK's default chain
 * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws/credentials, …).
 */
export function mturkClient(options: { production?: boolean } = {}): MTurkClient {
  const environment = environmentOf(options.production === true);
  const client = new MTurkClient({
    region: MTURK_REGION,
    endpoint: MTURK_ENDPOINTS[environment],
    // The explicit endpoint already wins over configured ones; this says so twice.
    ignoreConfiguredEndpointUrls: true,
  });
  // Last line of defence, on the request itself: whatever resolved the endpoint, a request for
  // another host is never signed or sent.
  client.middlewareStack.add(
    (next) => async (args) => {
      const host = (args.request as { hostname?: unknown }).hostname;
      if (host !== hostOf(environment)) {
        throw new MturkEndpointError(
          `Refusing to send an MTurk request to ${String(host)}: this client is for the ${environment} (${hostOf(environment)})`,
        );
      }
      return next(args);
    },
    { step: "build", name: "socratesMturkHostGuard" },
  );
  return client;
}

/** The host the client will send to; an error when it has no explicit endpoint (the SDK would pick production). */
export async function resolvedEndpointHost(client: MTurkClient): Promise<string> {
  const endpoint = client.config.endpoint;
  if (typeof endpoint !== "function") {
    throw new MturkEndpointError(
      "The MTurk client has no explicit endpoint, so the SDK would choose one itself (production); build it with mturkClient()",
    );
  }
  return (await endpoint()).hostname;
}

/**
 * Throws unless the client sends to the environment asked for: without `production` that is
 * the sandbox, whatever the client was built with; with it, production (so HITs are never
 * recorded under the wrong environment either).
 */
export async function assertEnvironment(client: MTurkClient, production: boolean): Promise<MturkEnvironment> {
  const environment = environmentOf(production);
  const host = await resolvedEndpointHost(client);
  if (host !== hostOf(environment)) {
    const hint = production ? "" : " Production is used only with --production.";
    throw new MturkEndpointError(
      `The MTurk client points at ${host}, not the ${environment} endpoint ${hostOf(environment)}; nothing was sent.${hint}`,
    );
  }
  return environment;
}

/**
 * Runs one API call after checking the endpoint; every publish and sync call goes through here:
 * `checkedSend(client, production, (c) => c.send(new CreateHITTypeCommand(input)))`.
 */
export async function checkedSend<T>(
  client: MTurkClient,
  production: boolean,
  call: (client: MTurkClient) => Promise<T>,
): Promise<T> {
  await assertEnvironment(client, production);
  return call(client);
}

/** True for the SDK's "no credentials anywhere in the chain" error. */
export function isMissingCredentials(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === "CredentialsProviderError" || /could not load credentials/i.test(err.message))
  );
}

export const MISSING_CREDENTIALS_HELP =
  "No AWS credentials were found for Mechanical Turk. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE naming a profile in ~/.aws/credentials) for an IAM user with MTurk access, then run the command again.";
