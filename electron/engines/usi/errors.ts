// Typed failures of an engine process, so the pool can tell "restart and retry"
// from "the user must fix the command line".

/** Base class: every engine failure carries the engine's display name. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly engine: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The process could not be started or never completed the handshake. */
export class EngineStartError extends EngineError {}

/**
 * An option value the engine does not take (outside its announced range, not one of its
 * values): refused at the start, before isready. The user must fix it; restarting will not help.
 */
export class EngineOptionError extends EngineStartError {}

/** The process died while it was supposed to be working. */
export class EngineCrashError extends EngineError {
  constructor(
    message: string,
    engine: string,
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    /** The last lines the engine wrote to stderr, oldest first. */
    readonly stderrTail: string[],
  ) {
    super(message, engine);
  }
}

/** No `bestmove` (or `readyok`) within the limit plus grace; the process was killed. */
export class EngineTimeoutError extends EngineError {}

/** The engine talks, but not USI (floods of garbage, oversized output). */
export class EngineProtocolError extends EngineError {}

/** A think request that cannot be done: retrying will not help (e.g. `go nodes` on GPS Shogi, which aborts on it; no limit at all). */
export class EngineUnsupportedError extends EngineError {}
