// Why an engine command could not be started, in words: the system's "spawn /tmp EACCES" said
// neither that /tmp is a folder nor that a script lacks its execute permission.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

export function spawnFailureWords(command: string, cwd: string | undefined, e: NodeJS.ErrnoException): string {
  const code = e.code ?? "";
  // A bare name is looked up on PATH: what the system found there is not known here.
  if (!command.includes("/") && !command.includes("\\")) return e.message;
  const file = path.resolve(cwd ?? process.cwd(), command);
  let isDir: boolean;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    return e.message;
  }
  if (isDir) return `${file} is a folder, not a program (${code}): name the engine's executable inside it`;
  if (code === "EACCES") {
    let executable = true;
    try {
      accessSync(file, constants.X_OK);
    } catch {
      executable = false;
    }
    return executable
      ? `permission denied (${code}): a folder on the way to it may not be searchable, or the file system forbids running programs`
      : `${file} is not executable (${code}): not a program, or a program without its execute permission (chmod +x ${file})`;
  }
  if (code === "ENOEXEC")
    return `${file} is not a program this system can run (${code}): built for another system, or a script without a #! line`;
  return e.message;
}
