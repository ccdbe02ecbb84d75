/**
 * Starts bench/mock-llm-process.ts (the stand-in in its own process, so its latency timers do not
 * share an event loop with the work being measured) and talks to it over IPC.
 */
import { fork, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import type { MockStats, ServiceRecord } from "./mock-llm-process.ts";

export type { MockStats, ServiceRecord };

export interface MockProcess {
  url: string;
  /** Figures for the requests since the previous call. */
  stats(): Promise<MockStats>;
  /** Every chat request since the previous call, with its key and service time (bench/dependent-chain.ts). */
  services(): Promise<ServiceRecord[]>;
  close(): Promise<void>;
}

/** The stand-in with latency uniform in [min, max] ms (seeded). */
export async function startMockProcess(latency: { min: number; max: number }): Promise<MockProcess> {
  const child: ChildProcess = fork(resolve(import.meta.dirname, "mock-llm-process.ts"), {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      MOCK_LATENCY_MIN: String(latency.min),
      MOCK_LATENCY_MAX: String(latency.max),
      MOCK_SEED: "7",
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <T>(type: string): Promise<T> =>
    new Promise((ok, fail) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        ok(m as T);
      };
      const onExit = (code: number | null) => fail(new Error(`the mock LLM process exited with code ${code}`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const ask = <T>(type: string): Promise<T> => {
    const reply = next<T>(type);
    child.send({ type });
    return reply;
  };
  const { url } = await next<{ url: string }>("ready");
  return {
    url,
    stats: async () => (await ask<{ stats: MockStats }>("stats")).stats,
    services: async () => (await ask<{ services: ServiceRecord[] }>("services")).services,
    close: async () => {
      const exited = new Promise((ok) => child.once("exit", ok));
      child.send({ type: "close" });
      await exited;
    },
  };
}
