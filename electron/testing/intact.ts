// Books for the tests of "nothing destroys a book", and the check that one survived:
// integrity_check ok and every stored position still there (read beside a live holder, read-only).
import { expect } from "vitest";
import Database from "better-sqlite3";
import { OpenBook } from "../book/open-book.js";
import { growBook } from "./grow.js";

/** A new book grown to `n` thought positions; returns their SFENs. */
export function makeBook(file: string, n: number, settings: Parameters<typeof OpenBook.create>[1] = {}): string[] {
  // No settle rounds: each position handed out is a new one, so the list is the book's positions.
  const book = OpenBook.create(file, { settleFactor: 0, ...settings });
  try {
    return growBook(book, n);
  } finally {
    book.close();
  }
}

/** `exact`: the book holds these thought positions and no others (nothing was added either). */
export function assertIntact(file: string, sfens: string[], { exact = false } = {}): void {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  } finally {
    db.close();
  }
  const book = OpenBook.open(file, {}, { readonly: true });
  try {
    for (const s of sfens) expect(book.store.thoughts.get(s), s).toBeDefined();
    if (exact) expect(book.store.thoughts.count()).toBe(sfens.length);
  } finally {
    book.close();
  }
}

/**
 * Every row of every table of a book file (rows sorted), read beside a live holder (read-only):
 * two equal dumps mean nothing was stored or changed in between. The writer lock's row is left
 * out: it says who holds the book now (a reopen takes it again), not what the book holds.
 */
export function bookRows(file: string): string {
  const db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(true); // 64-bit keys exactly
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'writer_lock' ORDER BY name")
      .pluck()
      .all() as string[];
    const cell = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);
    return JSON.stringify(
      tables.map((t) => [
        t,
        (
          db
            .prepare(`SELECT * FROM "${t.replace(/"/g, '""')}"`)
            .raw()
            .all() as unknown[][]
        )
          .map((r) => JSON.stringify(r, cell))
          .sort(),
      ]),
    );
  } finally {
    db.close();
  }
}
