// Files coming up from a browser: book files in pieces (upload.begin, upload.chunk in order,
// then an import takes the file), each in a private temporary folder, and game records sent
// whole, written to a temporary folder so seeding reads them like any other file.

import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeFileSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { SEED_UPLOAD_MAX_BYTES, UPLOAD_CHUNK_BYTES, userError } from "../../shared/api/contract.js";

/** Uploads open at once (each holds a file open and disk space promised). */
export const MAX_OPEN_UPLOADS = 8;
/** Uploads left behind (a closed tab) go after this long without a piece. */
const UPLOAD_IDLE_MS = 3_600_000;

interface Upload {
  name: string;
  size: number;
  dir: string;
  file: string;
  /** Open for writing until the upload is taken (-1 after). */
  fd: number;
  received: number;
  touched: number;
}

/** A finished upload: the user's file name and where its bytes are. */
export interface UploadedFile {
  name: string;
  file: string;
}

/** A file name made safe for a temporary folder (Japanese names are kept); a name that is no file's ("..", "/", ".") is refused. */
function safeName(name: string): string {
  const base = path.basename(name);
  if (base === "" || base === "." || base === "..") throw userError(`${JSON.stringify(name)} is not a file name: upload a file`);
  return base.replace(/[^\w.\-\u3000-\u9fff]/g, "_");
}

export class Uploads {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Starts an upload of `size` bytes, refused when the temporary folder has no room for it. */
  begin(name: string, size: number): { id: string } {
    for (const [id, u] of this.uploads) if (this.now() - u.touched > UPLOAD_IDLE_MS) this.drop(id);
    const base = safeName(name);
    if (this.uploads.size >= MAX_OPEN_UPLOADS)
      throw userError(`${MAX_OPEN_UPLOADS} uploads are open already: let one finish or cancel it first`);
    const dir = mkdtempSync(path.join(tmpdir(), "horu-upload-"));
    try {
      // The room is what the open uploads have not claimed yet: their announced bytes are promised.
      const free = statfsSync(dir);
      let claimed = 0;
      for (const u of this.uploads.values()) claimed += u.size - u.received;
      const room = Math.max(0, Number(free.bavail) * Number(free.bsize) - claimed);
      if (size > room)
        throw userError(
          `${name}: ${(size / 1048576).toFixed(1)} MiB do not fit in the server's temporary folder (${(room / 1048576).toFixed(1)} MiB free${claimed ? " beside the uploads under way" : ""})`,
        );
      const file = path.join(dir, base);
      const id = randomBytes(16).toString("hex");
      this.uploads.set(id, { name, size, dir, file, fd: openSync(file, "w"), received: 0, touched: this.now() });
      return { id };
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** Writes the next piece; pieces come in order, none past the announced size. */
  chunk(id: string, offset: number, base64: string): { received: number } {
    const up = this.get(id);
    if (up.fd < 0) throw userError(`${up.name}: the upload is already being imported`);
    if (offset !== up.received)
      throw userError(`${up.name}: a piece at byte ${offset}, but ${up.received} bytes have arrived (pieces go in order)`);
    const bytes = Buffer.from(base64, "base64");
    if (bytes.length > UPLOAD_CHUNK_BYTES) throw userError(`${up.name}: a piece of ${bytes.length} bytes (at most ${UPLOAD_CHUNK_BYTES})`);
    if (up.received + bytes.length > up.size) throw userError(`${up.name}: more bytes than the ${up.size} announced`);
    try {
      writeSync(up.fd, bytes, 0, bytes.length, offset);
    } catch (e) {
      this.drop(id);
      throw e;
    }
    up.received += bytes.length;
    up.touched = this.now();
    return { received: up.received };
  }

  /** A complete upload, closed for writing: the caller reads it, then drops it. */
  take(id: string): UploadedFile {
    const up = this.get(id);
    if (up.received !== up.size) throw userError(`${up.name}: the upload is not complete (${up.received} of ${up.size} bytes)`);
    closeSync(up.fd);
    up.fd = -1;
    return { name: up.name, file: up.file };
  }

  /** Forgets an upload and deletes its folder (nothing when it is gone already). */
  drop(id: string): void {
    const up = this.uploads.get(id);
    if (!up) return;
    this.uploads.delete(id);
    if (up.fd >= 0) closeSync(up.fd);
    rmSync(up.dir, { recursive: true, force: true });
  }

  dropAll(): void {
    for (const id of [...this.uploads.keys()]) this.drop(id);
  }

  get size(): number {
    return this.uploads.size;
  }

  private get(id: string): Upload {
    const up = this.uploads.get(id);
    if (!up) throw userError("no such upload (it finished, was cancelled, or the server restarted)");
    return up;
  }
}

/**
 * Writes game records sent whole (seed.upload) to a private temporary folder, runs `use` on
 * their paths and deletes the folder whatever happens.
 */
export async function withUploadedRecords<T>(
  files: Array<{ name: string; base64: string }>,
  use: (paths: string[]) => T | Promise<T>,
): Promise<T> {
  const total = files.reduce((n, f) => n + Math.floor((f.base64.length * 3) / 4), 0);
  if (total > SEED_UPLOAD_MAX_BYTES)
    throw userError(
      `the upload holds ${(total / 1048576).toFixed(1)} MiB of game records; at most ${SEED_UPLOAD_MAX_BYTES / 1048576} MiB go at once (seed big collections with horu import)`,
    );
  const dir = mkdtempSync(path.join(tmpdir(), "horu-seed-"));
  try {
    const paths = files.map((f, i) => {
      const p = path.join(dir, `${i}-${safeName(f.name)}`);
      writeFileSync(p, Buffer.from(f.base64, "base64"));
      return p;
    });
    return await use(paths);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
