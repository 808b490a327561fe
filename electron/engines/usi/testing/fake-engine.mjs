#!/usr/bin/env node
// A scriptable stand-in engine for FAULT INJECTION tests only (crash, hang,
// garbage, slow start...). Its "ok" answers are canned lines, not shogi: tests
// of normal behaviour use the real engines.
//
// usage: node fake-engine.mjs --mode MODE [--delay MS] [--state FILE] [--fail-first N] [--fail-sfen TEXT]
// modes: ok | crash-mid-think | hang | garbage | no-usiok | exit-at-start | slow-readyok
//        | flood | no-newline | invalid-utf8 | crlf | bare-bestmove (no info at MultiPV 1) | bare-always
// --fail-first N --state FILE: crash on the first N thinks, counted across processes in FILE.
// --fail-sfen TEXT: crash whenever the position contains TEXT.
// Every command received is echoed to stderr as "got: <line>" so tests can check what was sent.
import { Buffer } from "node:buffer";
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { setImmediate, setTimeout } from "node:timers";

const args = process.argv.slice(2);
const arg = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const mode = arg("mode", process.env.FAKE_ENGINE_MODE ?? "ok");
const delayMs = Number(arg("delay", "3000"));
const stateFile = arg("state", "");
const failFirst = Number(arg("fail-first", "0"));
const failSfen = arg("fail-sfen", "");
const eol = mode === "crlf" ? "\r\n" : "\n";
const out = (s) => process.stdout.write(s + eol);

if (mode === "exit-at-start") {
  process.stderr.write("fake: cannot open evaluation file\n");
  process.exit(2);
}

const MOVES = [
  "7g7f",
  "2g2f",
  "5g5f",
  "6g6f",
  "1g1f",
  "9g9f",
  "3g3f",
  "4g4f",
  "8h7g",
  "3i4h",
  "7i6h",
  "5i4h",
  "6i7h",
  "4i5h",
  "2h5h",
  "2h6h",
];
let multipv = 1;
let position = "";
let thinks = 0;
let hanging = false;

function shouldFail() {
  if (failSfen && position.includes(failSfen)) return true;
  if (failFirst > 0 && stateFile) {
    let n = 0;
    try {
      n = Number(readFileSync(stateFile, "utf8")) || 0;
    } catch {
      /* first run */
    }
    writeFileSync(stateFile, String(n + 1));
    return n < failFirst;
  }
  return false;
}

function think() {
  thinks++;
  if (shouldFail() || mode === "crash-mid-think") {
    out("info depth 1 multipv 1 score cp 10 nodes 5 pv 7g7f");
    process.stderr.write("fake: segmentation fault (simulated)\n");
    setTimeout(() => process.exit(139), 20);
    return;
  }
  if (mode === "hang") {
    hanging = true;
    return;
  }
  if (mode === "slow-bestmove") {
    // Answers late (a starved engine): bestmove after --delay ms, whatever the limit.
    setTimeout(() => out(`bestmove ${MOVES[0]}`), delayMs);
    return;
  }
  if (mode === "garbage") {
    for (let i = 0; i < 5000; i++) out(`garbage ${i} %%%% not usi at all`);
    hanging = true;
    return;
  }
  if (mode === "no-newline") {
    // Output that never ends a line: the reader must not buffer it all.
    const chunk = "x".repeat(1 << 20);
    let n = 0;
    const tick = () => {
      if (n++ < 40) {
        process.stdout.write(chunk);
        setImmediate(tick);
      }
    };
    tick();
    hanging = true;
    return;
  }
  if (mode === "bare-always" || (mode === "bare-bestmove" && multipv === 1)) {
    out(`bestmove ${MOVES[0]}`);
    return;
  }
  if (mode === "flood") process.stdout.write("info string " + "y".repeat(8 << 20) + "\n");
  const k = Math.min(multipv, MOVES.length);
  for (let depth = 1; depth <= 3; depth++) {
    for (let i = 1; i <= k; i++) {
      const extra = mode === "invalid-utf8" ? " string \udcff" : "";
      out(
        `info depth ${depth} seldepth ${depth} multipv ${i} score cp ${120 - 20 * i} nodes ${1000 * depth} nps 100000 time ${depth} pv ${MOVES[i - 1]} 3c3d${extra}`,
      );
    }
  }
  if (mode === "invalid-utf8")
    process.stdout.write(Buffer.from([0x69, 0x6e, 0x66, 0x6f, 0x20, 0x73, 0x74, 0x72, 0x69, 0x6e, 0x67, 0x20, 0xff, 0xfe, 0xc3, 0x0a]));
  out(`bestmove ${MOVES[0]} ponder 3c3d`);
}

let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, nl).replace(/\r$/, "");
    buf = buf.slice(nl + 1);
    handle(line);
  }
});
process.stdin.on("end", () => process.exit(0));

function handle(line) {
  process.stderr.write(`got: ${line}\n`);
  const [cmd] = line.split(" ");
  switch (cmd) {
    case "usi":
      if (mode === "invalid-utf8") process.stdout.write(Buffer.from("id name fake\xff engine\n", "latin1"));
      else out("id name fake engine");
      out("id author nobody");
      out("option name USI_Hash type spin default 16 min 1 max 1024");
      out("option name MultiPV type spin default 1 min 1 max 500");
      out("option name USI_OwnBook type check default true");
      out("option name BookFile type combo default standard_book.db var no_book var standard_book.db");
      out("option name Eval Dir type string default <empty>");
      if (mode !== "no-usiok") out("usiok");
      break;
    case "isready":
      if (mode === "slow-readyok") setTimeout(() => out("readyok"), delayMs);
      else out("readyok");
      break;
    case "setoption": {
      const m = /^setoption name MultiPV value (\d+)/.exec(line);
      if (m) multipv = Number(m[1]);
      break;
    }
    case "position":
      position = line;
      break;
    case "go":
      think();
      break;
    case "stop":
      if (!hanging && mode !== "hang") out(`bestmove ${MOVES[0]}`);
      break;
    case "quit":
      if (mode !== "hang") process.exit(0);
      break;
    default:
      break;
  }
}
void thinks;
