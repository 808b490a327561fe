// Books for the tests of "nothing destroys a book", and the check that one survived:
// integrity_check ok and every stored position still there (read beside a live holder, read-only).
import { expect } from "vitest";
import Database from "better-sqlite3";
import { OpenBook } from "../book/open-book.js";
import { growBook } from "./grow.js";

/** A new book grown to `n` thought positions; returns their SFENs. */
export function makeBook(file: string, n: number, settings: Parameters<typeof OpenBook.create>[1] = {}): string[] {
  const book = OpenBook.create(file, settings);
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
    for (const s of sfens) expect(book.store.getPosition(s), s).toBeDefined();
    if (exact) expect(book.store.countThought()).toBe(sfens.length);
  } finally {
    book.close();
  }
}
