// Paths as the page shows them: where a file name starts (the top bar), and where an export path lands, said in the dialog before the host answers or when it refuses
// the path outright (outside the folder this page may write): the folder relative paths are
// resolved in (the open book's) and the path resolved there, POSIX or Windows alike.

/** Where a path's file name starts: after its last separator, "/" or "\\" (0 for a bare name). */
export function nameStart(file: string): number {
  return Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1;
}

/** The folder a file is in ("/books" for "/books/a.horu", "C:\\books" for "C:\\books\\a.horu"). */
export function folderOf(file: string): string {
  const cut = nameStart(file) - 1;
  if (cut < 0) return ".";
  if (cut === 0) return file[0]!;
  // "C:\a.horu": the drive's root, not "C:".
  if (/^[A-Za-z]:$/.test(file.slice(0, cut))) return file.slice(0, cut + 1);
  return file.slice(0, cut);
}

const absolute = (p: string) => p.startsWith("/") || p.startsWith("\\") || /^[A-Za-z]:[\\/]/.test(p);

/** `p` resolved in `folder` ("." and ".." steps taken), with the folder's separator; an absolute `p` as it is, tidied. */
export function resolveIn(folder: string, p: string): string {
  const windows = /^[A-Za-z]:[\\/]/.test(folder) || (folder.includes("\\") && !folder.includes("/"));
  const sep = windows ? "\\" : "/";
  const full = absolute(p) ? p : /[\\/]$/.test(folder) ? folder + p : folder + sep + p;
  const root = /^[A-Za-z]:[\\/]/.exec(full)?.[0] ?? (/^[\\/]{2}/.test(full) ? sep + sep : /^[\\/]/.test(full) ? sep : "");
  const parts: string[] = [];
  for (const part of full.slice(root.length).split(/[\\/]+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length > 0 && parts.at(-1) !== "..") parts.pop();
      else if (!root) parts.push(part);
    } else parts.push(part);
  }
  return `${root.replace(/[\\/]$/, sep)}${parts.join(sep)}` || ".";
}
