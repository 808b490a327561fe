// The line `horu dig --print-results` prints once a result is stored (durable), and the
// reader other processes (tests, the soak) use to learn what was acknowledged.
import type { Readable } from "node:stream";

const PREFIX = "stored ";

export const storedLine = (sfen: string): string => `${PREFIX}${sfen}\n`;

/** Calls back with the SFEN of every `stored` line the stream carries, as lines complete. */
export function followStored(stream: Readable, onStored: (sfen: string) => void): void {
  let out = "";
  stream.on("data", (d: Buffer) => {
    out += d.toString();
    let i: number;
    while ((i = out.indexOf("\n")) >= 0) {
      const line = out.slice(0, i);
      out = out.slice(i + 1);
      if (line.startsWith(PREFIX)) onStored(line.slice(PREFIX.length));
    }
  });
}
