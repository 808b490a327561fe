// Tests that spawn the `horu` command line need the bundled Node entry points.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default function setup(): () => void {
  execFileSync(process.execPath, ["scripts/build-node.mjs"], { stdio: "inherit" });
  // The tests' engine library, recent books and first-run books never touch the user's own.
  const dir = mkdtempSync(path.join(tmpdir(), "horu-test-config-"));
  process.env.HORU_CONFIG_DIR = path.join(dir, "config");
  process.env.HORU_DOCUMENTS_DIR = path.join(dir, "Documents");
  return () => rmSync(dir, { recursive: true, force: true });
}
