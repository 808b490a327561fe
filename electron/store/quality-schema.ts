// v8: what `horu book quality` measured, kept in the book so that a second run only adds to
// it. One row a search: a position searched by one engine at one node limit (an oracle's
// deep search, or an opponent's reply at a jittered limit), its best move and value.
import type Database from "better-sqlite3";

export const QUALITY_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS quality_searches (
    sfen TEXT NOT NULL,          -- the position (a book key: no move number)
    engine TEXT NOT NULL,        -- the engine's id name
    nodes INTEGER NOT NULL,      -- the node limit of the search
    move TEXT NOT NULL,          -- its best move (USI; "resign" / "win" when it said so)
    value INTEGER NOT NULL,      -- cp from the side to move, mates as in the book
    depth INTEGER NOT NULL,
    at INTEGER NOT NULL,         -- ms since the epoch
    PRIMARY KEY (sfen, engine, nodes)
  ) WITHOUT ROWID;
`;

/** The migration to schema v8 (schema.ts appends it). */
export const v8Quality = (db: Database.Database): void => {
  db.exec(QUALITY_TABLE_SQL);
};
