// `horu web`: serves the renderer and the host contract to a browser on this machine
// (electron/web/server.ts), with the host service on a worker thread.

import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "../command.js";
import { UsageError, openProgress } from "../command.js";
import { BIND_HOST, startWebServer } from "../../web/server.js";
import { RemoteService, defaultWorkerFile } from "../../host/remote-service.js";
import { dispatch } from "../../host/transport.js";
import { recentFile } from "../../engines/places.js";

const usage = `usage: horu web [--port P] [--book FILE] [--match DIR] [--allow-root] [--allow-server-paths]

Serves the horu UI to a browser on this machine and prints its URL, token included:
  horu web: http://127.0.0.1:PORT/?token=TOKEN
Only 127.0.0.1 is served (--host accepts nothing else; use an SSH tunnel to reach it from
another machine). --port 0 (the default) picks a free port. --book opens that book at
start, creating it when it does not exist. --match opens a match folder in the Match view:
it follows a \`horu match --out DIR\` running elsewhere, or resumes the match here. A book
another process digs is followed read-only and live. Ctrl-C (or SIGTERM) closes the book and exits.
  --allow-root           run although this user is root (refused otherwise: the page
                         starts programs and writes files with this user's rights)
  --allow-server-paths   let the page name files, folders and command lines on this
                         machine (seed a folder, import by path, run any engine, export
                         and back up anywhere, the Match view); otherwise the page uploads
                         files, runs only the library's, detected or built-in engines and
                         writes only into the book's folder (docs/SECURITY.md)`;

export const webCommand: Command = {
  name: "web",
  summary: "serve the UI to a browser on 127.0.0.1 and print the URL with its token",
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: "string" },
        book: { type: "string" },
        host: { type: "string" },
        match: { type: "string" },
        "allow-root": { type: "boolean" },
        "allow-server-paths": { type: "boolean" },
      },
    });
    if (values.host !== undefined && values.host !== BIND_HOST) {
      throw new UsageError(
        `--host ${values.host}: horu web serves on ${BIND_HOST} only, since anyone who can reach the port and read the token controls the engines and files; use an SSH tunnel (ssh -L) to use it from another machine`,
      );
    }
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be a port number (0-65535), not '${values.port}'`);
    if (process.getuid?.() === 0 && !values["allow-root"]) {
      throw new UsageError(
        "horu web refuses to run as root: the page can start programs and write files with root's rights. Run it as an ordinary user, or give --allow-root if you mean it (CI, a container)",
      );
    }

    const workerFile = defaultWorkerFile();
    // The recent books sit beside the engine library in the config folder, shared with the app.
    const allowServerPaths = values["allow-server-paths"] ?? false;
    // Without --allow-server-paths the page runs only known engines and writes only beside the book (docs/SECURITY.md).
    const host = new RemoteService({
      workerFile,
      recentFile: recentFile(),
      confine: !allowServerPaths,
      folder: values.book ? path.dirname(path.resolve(values.book)) : undefined,
    });
    let stopping: Promise<void> | null = null;
    const server = await startWebServer({
      host,
      port,
      allowServerPaths,
      staticDir: path.join(path.dirname(workerFile), "renderer"),
    });
    const stop = () => {
      stopping ??= (async () => {
        await server.close();
        await host.shutdown();
      })();
      return stopping;
    };
    try {
      if (values.book) {
        const file = path.resolve(values.book);
        // The URL comes once the book is open: until then the terminal shows how far the open is.
        const progress = openProgress();
        const off = host.onEvent((e) => {
          if (e.type === "book.opening") progress(e);
        });
        try {
          const reply = await dispatch(host, existsSync(file) ? "book.open" : "book.create", { path: file });
          if ("error" in reply) throw new Error(reply.error);
        } finally {
          off();
        }
      }
      if (values.match) {
        const reply = await dispatch(host, "match.open", { dir: path.resolve(values.match) });
        if ("error" in reply) throw new Error(reply.error);
      }
    } catch (e) {
      await stop();
      throw e;
    }
    process.stdout.write(`horu web: ${server.url}\n`);
    await new Promise<void>((resolve) => {
      const onSignal = () => {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        resolve();
      };
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
    });
    process.stderr.write("horu web: closing the book\n");
    await stop();
    return 0;
  },
};
