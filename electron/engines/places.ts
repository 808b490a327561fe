// Where horu keeps things of its own on this machine, by each platform's convention:
// the config folder (engine library, recent books) and the documents folder (new books).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/**
 * The config folder: $HORU_CONFIG_DIR when set (tests, portable installs), else
 * %APPDATA%\horu on Windows, ~/Library/Application Support/horu on macOS, and
 * $XDG_CONFIG_HOME/horu (~/.config/horu) elsewhere: the folder Electron calls userData.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.HORU_CONFIG_DIR) return path.resolve(env.HORU_CONFIG_DIR);
  const home = env.HOME || env.USERPROFILE || homedir();
  if (platform === "win32") return path.join(env.APPDATA || path.join(home, "AppData", "Roaming"), "horu");
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "horu");
  return path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "horu");
}

/** The user's documents folder ($HORU_DOCUMENTS_DIR when set, else ~/Documents), where new books go by default. */
export function documentsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HORU_DOCUMENTS_DIR) return path.resolve(env.HORU_DOCUMENTS_DIR);
  const home = env.HOME || env.USERPROFILE || homedir();
  return path.join(home, "Documents");
}

/** The recent-books list beside the engine library. */
export function recentFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), "recent.json");
}

/** Puts a book first in the recent-books list (the app and `horu web` show it); never fails the caller. */
export function rememberRecent(book: string, file: string = recentFile(), max = 10): void {
  try {
    let list: string[] = [];
    if (existsSync(file)) {
      const old: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (Array.isArray(old)) list = old.filter((x): x is string => typeof x === "string");
    }
    const full = path.resolve(book);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify([full, ...list.filter((p) => p !== full)].slice(0, max)));
  } catch {
    // the recent list is a convenience
  }
}

/** Takes a book off the recent-books list (a book removed again: the list would offer a file that is gone); never fails the caller. */
export function forgetRecent(book: string, file: string = recentFile()): void {
  try {
    if (!existsSync(file)) return;
    const old: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!Array.isArray(old)) return;
    const full = path.resolve(book);
    writeFileSync(file, JSON.stringify(old.filter((x) => typeof x === "string" && x !== full)));
  } catch {
    // the recent list is a convenience
  }
}
