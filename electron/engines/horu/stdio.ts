// horu's engine on standard input/output: what `horu engine` and the built-in engine's
// runner both start.
import { createInterface } from "node:readline";
import { UsiEngine } from "./usi-server.js";

/** Runs the USI loop until `quit` or the end of standard input; resolves with the exit code. */
export function runUsiOnStdio(workerFile?: string): Promise<number> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, terminal: false });
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      rl.close();
      resolve(0);
      // The search threads are unref'd; exit once standard output has drained.
      process.stdout.write("", () => process.exit(0));
    };
    const engine = new UsiEngine((line) => process.stdout.write(line + "\n"), workerFile, end);
    rl.on("line", (line) => engine.handle(line));
    rl.on("close", () => engine.quit());
  });
}
