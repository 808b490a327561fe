// Splits a byte stream into text lines with bounded memory: a line longer than
// `maxLine` bytes is dropped (reported once), never accumulated.

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private readonly decoder = new TextDecoder("utf-8"); // invalid UTF-8 becomes U+FFFD

  constructor(
    private readonly maxLine: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverlong: (droppedBytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      if (!this.skipping) {
        if (this.size + (end - start) > this.maxLine) {
          this.onOverlong(this.size + (end - start));
          this.skipping = true;
          this.parts = [];
          this.size = 0;
        } else if (end > start) {
          // Copy: a subarray would pin the whole chunk until the line completes.
          this.parts.push(Buffer.from(chunk.subarray(start, end)));
          this.size += end - start;
        }
      }
      if (nl < 0) break;
      if (!this.skipping) this.emit();
      this.skipping = false;
      this.parts = [];
      this.size = 0;
      start = nl + 1;
    }
  }

  /** Emits a final unterminated line (at end of stream). */
  flush(): void {
    if (!this.skipping && this.size > 0) this.emit();
    this.parts = [];
    this.size = 0;
    this.skipping = false;
  }

  private emit(): void {
    let line = this.decoder.decode(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts));
    if (line.endsWith("\r")) line = line.slice(0, -1);
    this.onLine(line);
  }
}
