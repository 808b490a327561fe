// The Electron main process (bundled as dist/electron-main.cjs, package.json "main"). All the
// wiring is in shell.ts; the host service runs on a worker thread (dist/host-worker.cjs).
import * as electron from "electron";
import path from "node:path";
import { startApp, type ElectronLike } from "./shell.js";
import { RemoteService } from "../host/remote-service.js";

// The bundle lives in dist/, beside preload.cjs, host-worker.cjs and renderer/.
const distDir = __dirname;

startApp(electron as unknown as ElectronLike, {
  distDir,
  createHost: (recentFile) => new RemoteService({ workerFile: path.join(distDir, "host-worker.cjs"), recentFile }),
}).catch((e: unknown) => {
  electron.dialog.showErrorBox("horu could not start", e instanceof Error ? (e.stack ?? e.message) : String(e));
  electron.app.exit(1);
});
