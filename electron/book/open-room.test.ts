// A book opened from its snapshot has room for the positions a dig adds next: the first
// results do not copy the whole graph (seconds on a big book, on the host's thread).
import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import path from "node:path";
import { OpenBook, SNAPSHOT_MIN_POSITIONS, spareRoom } from "./open-book.js";
import { writeDigShapedBook } from "../bench/books/dig-shaped-book.js";
import { growBook } from "../testing/grow.js";
import { tempDir } from "../testing/paths.js";

describe("room after an open", () => {
  const dir = tempDir("horu-open-room-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("opened from the snapshot, the graph grows into its room without copying its arrays", () => {
    const file = path.join(dir, "book.horu");
    writeDigShapedBook(file, SNAPSHOT_MIN_POSITIONS);
    const book = OpenBook.open(file);
    try {
      expect(book.timings.from).toBe("snapshot");
      const g = book.graph;
      expect(g.keyHi.length).toBeGreaterThanOrEqual(g.nodeCount + spareRoom(g.nodeCount));
      expect(g.eMove.length).toBeGreaterThanOrEqual(g.edgeTotal + spareRoom(g.nodeCount));
      const arrays = [g.keyHi, g.keyLo, g.flags, g.edgeStart, g.edgeCount, g.eMove, g.eValue, g.eChild, g.eFlags];
      const before = g.nodeCount;
      expect(growBook(book, 20)).toHaveLength(20);
      expect(g.nodeCount).toBe(before + 20);
      const now = [g.keyHi, g.keyLo, g.flags, g.edgeStart, g.edgeCount, g.eMove, g.eValue, g.eChild, g.eFlags];
      now.forEach((a, i) => expect(a, `array ${i}`).toBe(arrays[i]));
    } finally {
      book.close();
    }
  });
});
