/**
 * The mock LLM server in its own process, for bench/pipeline.ts. Run in the benchmark's own
 * process, the mock's latency timers would share one event loop with the pipeline's SQLite
 * writes and JSON work, and both the wall time and the latencies it records would be skewed.
 *
 * Protocol (IPC messages): on start it sends { type: "ready", url }; { type: "stats" } is answered
 * with MockStats for the chat requests since the last "stats"; { type: "services" } is answered
 * with a ServiceRecord per chat request since the last "services" (its own cursor), for
 * bench/dependent-chain.ts; { type: "close" } stops it.
 */
import { standInResponder } from "../app/llm-roles/stand-in.ts";
import { startMockLlm, type RecordedRequest } from "../app/server/llm/stand-in/endpoint.server.ts";
import { serviceMs, serviceRecordOf, type ServiceRecord } from "./chain-key.ts";

export type { ServiceRecord };

export interface MockStats {
  /** Chat completion requests received. */
  requests: number;
  /** Of those, answered with something other than HTTP 200. */
  errors: number;
  /** Sum over requests of (responded − received), in ms: the latency each request really had. */
  latencySumMs: number;
  /** The most requests in flight at once, since start. */
  maxInFlight: number;
}

const isChat = (r: RecordedRequest) => r.path === "/v1/chat/completions";

const latency = { min: Number(process.env.MOCK_LATENCY_MIN ?? 200), max: Number(process.env.MOCK_LATENCY_MAX ?? 400) };
const mock = await startMockLlm({
  respond: standInResponder(), // the one `socrates mock-llm` serves
  latencyMs: latency,
  seed: Number(process.env.MOCK_SEED ?? 7),
});

let seen = 0;
let served = 0;
process.on("message", async (message: { type: string }) => {
  if (message.type === "stats") {
    const chats = mock.requests.slice(seen).filter(isChat);
    seen = mock.requests.length;
    const stats: MockStats = {
      requests: chats.length,
      errors: chats.filter((r) => r.status !== 200).length,
      latencySumMs: chats.reduce((sum, r) => sum + serviceMs(r), 0),
      maxInFlight: mock.maxInFlight(),
    };
    process.send!({ type: "stats", stats });
  } else if (message.type === "services") {
    const services = mock.requests.slice(served).flatMap((r) => serviceRecordOf(r) ?? []);
    served = mock.requests.length;
    process.send!({ type: "services", services });
  } else if (message.type === "close") {
    await mock.close();
    process.exit(0);
  }
});
// If the benchmark dies without saying "close", do not linger holding a port.
process.on("disconnect", () => process.exit(0));
process.send!({ type: "ready", url: mock.url });
