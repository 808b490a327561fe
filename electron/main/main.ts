// The Electron main process (bundled as dist/electron-main.cjs, package.json "main"). All the
// wiring is in shell.ts; the host service runs on a worker thread (dist/host-worker.cjs).
import * as electron from "electron";
import path from "node:path";
import { startApp, type ElectronLike } from "./shell.js";
import { RemoteService } from "../host/remote-service.js";
import { ENGINE_FLAG, engineFromArgv, runnerPath } from "../engines/builtin.js";

// The bundle lives in dist/, beside preload.cjs, host-worker.cjs and renderer/.
const distDir = __dirname;

// The packaged app has the RunAsNode fuse off, so a built-in engine is this executable started
// with --horu-engine=<id> (builtin.ts): it runs that engine's runner on stdin/stdout, and
// nothing else (only horu's own ids name a runner; no path or script comes from the command line).
const engine = engineFromArgv(process.argv);
if (process.argv.some((a) => a.startsWith(ENGINE_FLAG))) {
  const runner = engine && runnerPath(engine);
  if (!runner) {
    process.stderr.write(`horu: no built-in engine for ${process.argv.find((a) => a.startsWith(ENGINE_FLAG))}\n`);
    process.exit(2);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(runner);
} else {
  startApp(electron as unknown as ElectronLike, {
    distDir,
    createHost: (recentFile) => new RemoteService({ workerFile: path.join(distDir, "host-worker.cjs"), recentFile }),
  }).catch((e: unknown) => {
    electron.dialog.showErrorBox("horu could not start", e instanceof Error ? (e.stack ?? e.message) : String(e));
    electron.app.exit(1);
  });
}
