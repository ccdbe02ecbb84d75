/**
 * The CPU time a server process has used (Linux: found by its listening port with `ss`, read from
 * /proc): what the HTTP benches print per request beside the latencies, since it depends far less
 * than they do on what else runs on the machine.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The process listening on `port` (the server node, not the tsx launcher before it), via `ss`; null if unknown. */
export function listenerPid(port: string): number | null {
  try {
    const pid = /pid=(\d+)/.exec(execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" }))?.[1];
    return pid ? Number(pid) : null;
  } catch {
    return null;
  }
}

/** utime + stime of a process in ms (Linux /proc, clock ticks of 10 ms), or null. */
export function processCpuMs(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
