// What every transport (Electron IPC, `horu web`, the host worker) shares: the shape of a
// host it can call, and one dispatch that validates a call with parseCall and turns any
// outcome into a plain reply ({result} or {error, code}) that survives serialisation.

import {
  contract,
  parseCall,
  type CallError,
  type HostEvent,
  type Method,
  type ParsedArgs,
  type Result,
} from "../../shared/api/contract.js";

/** A HostService, in this thread or behind a worker (RemoteService). */
export interface Host {
  call<M extends Method>(method: M, args: ParsedArgs<M>): Promise<Result<M>>;
  onEvent(listener: (e: HostEvent) => void): () => void;
  closeBook(): Promise<void>;
}

export type CallReply = { result: unknown } | CallError;

const CODES = new Set<CallError["code"]>(["invalid-args", "unknown-method", "user", "failed"]);

/** The reply for a thrown value: its message for the user, its code when it is one of ours. */
export function errorReply(e: unknown): CallError {
  const code = (e as { code?: unknown } | null)?.code;
  const key = (e as { key?: unknown } | null)?.key;
  const params = (e as { params?: unknown } | null)?.params;
  return {
    error: e instanceof Error ? e.message : String(e),
    code: typeof code === "string" && CODES.has(code as CallError["code"]) ? (code as CallError["code"]) : "failed",
    ...(typeof key === "string" ? { key } : {}),
    ...(params && typeof params === "object" ? { params: params as Record<string, string | number> } : {}),
  };
}

/** Validates and runs one call from outside; never throws. */
export async function dispatch(host: Host, method: unknown, args: unknown): Promise<CallReply> {
  let parsed: { method: Method; args: unknown };
  // parseCall's `in` test lets inherited names through ("__proto__", "toString"); only own keys are methods.
  if (typeof method !== "string" || !Object.hasOwn(contract, method))
    return { error: `unknown method ${String(method)}`, code: "unknown-method" };
  try {
    parsed = parseCall(method, args);
  } catch (e) {
    return errorReply(e);
  }
  try {
    const result = await host.call(parsed.method, parsed.args as never);
    return { result: result === undefined ? null : result };
  } catch (e) {
    return errorReply(e);
  }
}

/** Turns an error reply back into a thrown Error carrying .code (what clients expect). */
export function replyError(reply: CallError): Error & { code: CallError["code"]; key?: string; params?: Record<string, string | number> } {
  return Object.assign(new Error(reply.error), {
    code: reply.code,
    ...(reply.key ? { key: reply.key } : {}),
    ...(reply.params ? { params: reply.params } : {}),
  });
}
