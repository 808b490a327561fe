// The host worker (bundled as dist/host-worker.cjs): the HostService on its own thread, so
// opening a big book (tens of seconds of graph building) or a long export never blocks the
// thread that serves the window or the browser. It speaks the messages in remote-service.ts
// and validates every call again with parseCall: the worker trusts no sender.

import { parentPort, workerData } from "node:worker_threads";
import { HostService } from "./service.js";
import { dispatch, errorReply } from "./transport.js";
import type { ToHost, FromHost, HostWorkerData } from "./remote-service.js";

const port = parentPort;
if (!port) throw new Error("worker-host.ts runs as a worker thread (see RemoteService)");

const data = (workerData ?? {}) as HostWorkerData;
const service = new HostService({ recentFile: data.recentFile, confine: data.confine, folder: data.folder });
const post = (m: FromHost) => port.postMessage(m);

service.onEvent((event) => post({ kind: "event", event }));

port.on("message", (m: ToHost) => {
  if (m.kind === "call") {
    void dispatch(service, m.method, m.args).then((reply) => {
      try {
        post({ kind: "reply", id: m.id, reply });
      } catch (e) {
        // A result that cannot be cloned is a bug, but the caller must still hear back.
        post({ kind: "reply", id: m.id, reply: errorReply(e) });
      }
    });
  } else if (m.kind === "close-book") {
    Promise.all([service.closeBook(), service.closeMatch()]).then(
      () => post({ kind: "reply", id: m.id, reply: { result: null } }),
      (e: unknown) => post({ kind: "reply", id: m.id, reply: errorReply(e) }),
    );
  }
});
