// Preloaded into the server by bench:annotation-http's and bench:dashboard's PROFILE=dir (Node refuses --cpu-prof in
// NODE_OPTIONS): profiles the process with the inspector and writes dir/<pid>.cpuprofile on exit.
import { Session } from "node:inspector";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.SOCRATES_CPU_PROFILE_DIR;
// Started through tsx (no bundle), the server is tsx's child: the launcher gets the same NODE_OPTIONS, and its own
// profile (it only waits) beside the server's was easy to take for the server's.
const launcher = /[\\/](\.bin[\\/]tsx|tsx[\\/]dist[\\/]cli\.m?js)$/.test(process.argv[1] ?? "");
if (dir && !launcher) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  process.on("exit", () => {
    // The in-process session answers synchronously, so the profile is written before the process ends.
    session.post("Profiler.stop", (err, result) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
