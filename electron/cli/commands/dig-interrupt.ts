// Ctrl-C (SIGINT) and SIGTERM for `horu dig`: the engines run in process groups of
// their own (engines/usi/process.ts), so the signal reaches horu alone and horu ends the dig
// itself. The first one pauses (running thinks finish and are stored), then stops; a think
// still running after FINISH_MS is interrupted and its position goes back unthought, and
// whatever is left after KILL_MS is killed: the dig ends within about 5 s. A second signal
// kills the engines at once. The book is never at risk either way: every result is stored
// in one transaction, and a position not stored stays unthought.
import { outputClosed } from "../output-closed.js";

/** What the handler drives (a Dig). */
export interface Interruptible {
  pause(): void;
  stop(how?: { graceMs?: number; now?: boolean }): Promise<void>;
  readonly state: string;
}

export const INTERRUPT_TIMING = {
  /** Running thinks get this long to finish and be stored. */
  finishMs: 2500,
  /** An interrupted think's bestmove is waited for this long. */
  graceMs: 1000,
  /** Then every engine left is killed. */
  killMs: 4000,
  /**
   * A second signal this soon after the first is the same Ctrl-C arriving twice: from the
   * terminal and from a parent that passes it on (npm run, npm run quickstart).
   */
  sameKeyMs: 500,
};

// Not SIGHUP: its terminal is gone, and the engines quit when horu's end closes their input.
const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

export class DigInterrupts {
  private firstAt = 0;
  private dig: Interruptible | null = null;
  private finishing = false;
  private readonly timers: ReturnType<typeof setTimeout>[] = [];
  private readonly onSignal = (signal: NodeJS.Signals) => this.signal(signal);

  constructor(
    private readonly say: (line: string) => void,
    private readonly timing = INTERRUPT_TIMING,
  ) {
    for (const s of SIGNALS) process.on(s, this.onSignal);
  }

  /** A signal came before the dig started: the caller should not start it. */
  get interrupted(): boolean {
    return this.firstAt > 0;
  }

  /** The dig to end on a signal (one that came before now ends it at once). */
  attach(dig: Interruptible): void {
    this.dig = dig;
    if (this.interrupted) this.finish();
  }

  dispose(): void {
    for (const s of SIGNALS) process.off(s, this.onSignal);
    for (const t of this.timers.splice(0)) clearTimeout(t);
  }

  private signal(signal: NodeJS.Signals): void {
    const now = Date.now();
    if (this.firstAt === 0) {
      this.firstAt = now;
      this.say(
        `${outputClosed() ? "output closed" : signal === "SIGINT" ? "Ctrl-C" : signal}: finishing the running thinks (at most ${Math.round(this.timing.killMs / 1000) + 1} s; Ctrl-C again to stop at once)...`,
      );
      if (this.dig) this.finish();
      return;
    }
    if (now - this.firstAt < this.timing.sameKeyMs) return;
    this.say("stopping now: running thinks go back unthought");
    void this.dig?.stop({ now: true });
  }

  private finish(): void {
    const dig = this.dig!;
    if (this.finishing) return;
    this.finishing = true;
    dig.pause();
    const poll = setInterval(() => {
      if (dig.state === "paused") {
        clearInterval(poll);
        void dig.stop({ graceMs: this.timing.graceMs });
      } else if (dig.state === "stopping" || dig.state === "stopped") clearInterval(poll);
    }, 50);
    this.timers.push(
      poll,
      setTimeout(() => {
        clearInterval(poll);
        if (dig.state !== "stopping" && dig.state !== "stopped") {
          this.say("interrupting the thinks still running: their positions go back unthought");
          void dig.stop({ graceMs: this.timing.graceMs });
        }
      }, this.timing.finishMs),
      setTimeout(() => void dig.stop({ now: true }), this.timing.killMs),
    );
  }
}
