#!/usr/bin/env node
// The `horu` command: runs the bundled CLI (built by `npm run build:node`).
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { hugePagesRelaunch, watchWrapper } from "./huge-pages.js";

const here = path.dirname(fileURLToPath(import.meta.url));
// `horu peta` has a bundle of its own: its whole process is what is timed against YaneuraOu.
const peta = path.join(here, "..", "dist", "horu-peta.cjs");
const entry = process.argv[2] === "peta" && existsSync(peta) ? peta : path.join(here, "..", "dist", "horu.cjs");
if (!existsSync(entry)) {
  console.error(`horu: ${entry} is missing; run \`npm run build:node\` first`);
  process.exit(2);
}
// A dig or a view of a big book runs again with its big arrays on huge pages (see huge-pages.js);
// this process then only waits for that one.
if (!hugePagesRelaunch(process.argv[2])) {
  watchWrapper();
  createRequire(import.meta.url)(entry);
}
