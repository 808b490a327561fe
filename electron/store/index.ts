// The book of record: public surface of electron/store.
export {
  BookStore,
  LOG_KEEP,
  type Ban,
  type EngineConfig,
  type Failure,
  type KeyedThought,
  type KifuSeed,
  type LogEntry,
  type LogLevel,
  type MoveStats,
  type MoveStatsRow,
  type OpenOptions,
  type PositionKey,
  type StoredThought,
} from "./book-store.js";
export {
  BookDataError,
  BookLockedError,
  BookOpenError,
  KeyCollisionError,
  StoreFullError,
  type BookOpenReason,
  type LockHolder,
} from "./errors.js";
export { keyToInt64, int64ToKey } from "./keys.js";
export { APP_ID, SCHEMA_VERSION } from "./schema.js";
