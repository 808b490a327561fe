// Finding USI engines already on this machine: on PATH and in the usual places, by the
// names their builds and packages use. Nothing is started here; `horu engines test` and the
// dig's own handshake say whether a found program really is an engine.
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

export type EngineKind = "yaneuraou" | "fairy-stockfish" | "gpsusi";

export interface FoundEngine {
  kind: EngineKind;
  name: string;
  command: string;
  /** YaneuraOu builds read their eval/ and book/ folders relative to the working folder. */
  cwd: string | null;
  /** Where it was found ("on PATH", "in /usr/games", ...). */
  where: string;
  /** Searches by time only (gpsusi ignores node limits). */
  timeOnly: boolean;
}

interface Pattern {
  kind: EngineKind;
  test: RegExp;
  name: (file: string) => string;
  timeOnly: boolean;
  /** Preference among detected engines, lower first (the strongest kind first). */
  rank: number;
}

const PATTERNS: Pattern[] = [
  { kind: "yaneuraou", test: /^YaneuraOu[\w.+-]*?(\.exe)?$/i, name: (f) => f.replace(/\.exe$/i, ""), timeOnly: false, rank: 0 },
  { kind: "fairy-stockfish", test: /^fairy-stockfish([\w.+-]*?)(\.exe)?$/i, name: () => "Fairy-Stockfish", timeOnly: false, rank: 1 },
  { kind: "gpsusi", test: /^gpsusi(\.exe)?$/i, name: () => "GPS Shogi (gpsusi)", timeOnly: true, rank: 2 },
];

/**
 * Folders looked in besides PATH: Debian's /usr/games, and the folders people unpack
 * YaneuraOu builds into. $HORU_ENGINE_DIRS (separated like PATH; empty for none) replaces
 * this list, e.g. to act as a machine without Debian's engines.
 */
export function usualPlaces(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string[] {
  if (env.HORU_ENGINE_DIRS !== undefined) return env.HORU_ENGINE_DIRS.split(path.delimiter).filter(Boolean);
  const home = env.HOME || env.USERPROFILE || homedir();
  const homes = ["YaneuraOu", "engines", "shogi", "Shogi", path.join("Documents", "engines"), path.join("Documents", "YaneuraOu")].map(
    (d) => path.join(home, d),
  );
  if (platform === "win32") {
    const pf = [env.ProgramFiles, env["ProgramFiles(x86)"], env.LOCALAPPDATA && path.join(env.LOCALAPPDATA, "Programs")].filter(
      (d): d is string => !!d,
    );
    return [...homes, ...pf.map((d) => path.join(d, "YaneuraOu"))];
  }
  const unix = ["/usr/games", "/usr/local/games", "/usr/local/bin", "/opt/YaneuraOu", "/opt/homebrew/bin"];
  return [...unix, ...homes];
}

function executable(file: string, platform: NodeJS.Platform): boolean {
  try {
    const st = statSync(file);
    if (!st.isFile()) return false;
    if (platform === "win32") return /\.exe$/i.test(file);
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Engines on PATH and in the usual places (one level of sub-folders there, where YaneuraOu
 * zips unpack), best kind first; one entry per program file.
 */
export function detectEngines(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): FoundEngine[] {
  const found: Array<FoundEngine & { rank: number }> = [];
  const seen = new Set<string>();
  const look = (dir: string, where: string, depth: number) => {
    for (const file of list(dir)) {
      const full = path.join(dir, file);
      const p = PATTERNS.find((x) => x.test.test(file));
      if (p && executable(full, platform)) {
        if (seen.has(full)) continue;
        seen.add(full);
        found.push({
          kind: p.kind,
          name: p.name(file),
          command: full,
          cwd: p.kind === "yaneuraou" ? dir : null,
          where,
          timeOnly: p.timeOnly,
          rank: p.rank,
        });
      } else if (depth > 0 && !file.startsWith(".")) {
        try {
          if (statSync(full).isDirectory()) look(full, where, depth - 1);
        } catch {
          // unreadable: not ours to worry about
        }
      }
    }
  };
  for (const dir of (env.PATH ?? env.Path ?? "").split(path.delimiter).filter(Boolean)) look(dir, "on PATH", 0);
  for (const dir of usualPlaces(env, platform)) look(dir, `in ${dir}`, 1);
  return found.sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...e }) => e);
}
