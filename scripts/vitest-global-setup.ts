// Tests that spawn the `horu` command line need the bundled Node entry points.
import { execFileSync } from "node:child_process";

export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build-node.mjs"], { stdio: "inherit" });
}
