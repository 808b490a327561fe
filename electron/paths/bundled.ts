// Where the files esbuild bundles into dist/ are at run time (worker threads, engine
// runners): beside the running bundle, one folder up (a runner in dist/engines/ looking for
// a worker in dist/), or the checkout's dist/ (tests run the sources, not a bundle).
import { existsSync } from "node:fs";
import path from "node:path";

/** The running bundle's folder; undefined when the sources run unbundled (ES modules have no __dirname). */
function bundleDir(): string | undefined {
  return typeof __dirname === "string" ? __dirname : undefined;
}

/** A packaged app unpacks some files from its asar archive (package.json asarUnpack): look there first. */
function withUnpacked(file: string): string[] {
  const unpacked = file.replace(/([\\/])app\.asar([\\/])/, "$1app.asar.unpacked$2");
  return unpacked !== file ? [unpacked, file] : [file];
}

/** The file `name` (a path inside dist/, e.g. "export-worker.cjs" or "engines/horu.cjs") where it exists, or null. */
export function findBundled(name: string): string | null {
  const here = bundleDir();
  const places = [...(here ? [path.join(here, name), path.join(here, "..", name)] : []), path.resolve("dist", name)];
  for (const file of places.flatMap(withUnpacked)) if (existsSync(file)) return file;
  return null;
}

/** The file `name` inside dist/; where it is not found, the checkout's dist/ (starting it then fails naming that path). */
export function bundledFile(name: string): string {
  return findBundled(name) ?? path.resolve("dist", name);
}
