// Books for the end-to-end tests and the check that one survived: integrity_check ok and every
// stored position still there (read beside the live holder, read-only).
import { expect } from "vitest";
import Database from "better-sqlite3";
import { OpenBook } from "../electron/dig/book";
import { growBook } from "../electron/testing/grow";

/** A new book grown to `n` thought positions; returns their SFENs. */
export function makeBook(file: string, n: number, settings: Parameters<typeof OpenBook.create>[1] = {}): string[] {
  const book = OpenBook.create(file, settings);
  try {
    return growBook(book, n);
  } finally {
    book.close();
  }
}

export function assertIntact(file: string, sfens: string[]): void {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  } finally {
    db.close();
  }
  const book = OpenBook.open(file, {}, { readonly: true });
  try {
    for (const s of sfens) expect(book.store.getPosition(s), s).toBeDefined();
  } finally {
    book.close();
  }
}
