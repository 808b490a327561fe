// Where horu keeps things of its own on this machine, by each platform's convention:
// the config folder (engine library, recent books) and the documents folder (new books).
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
