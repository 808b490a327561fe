// A board to set up: place and remove pieces, set both hands and the side to move. The SFEN
// is written by shared/rules/sfen.ts (the one writer) and checked by ./problem.ts (kings, dead
// pieces, two pawns); it can become the book's root or be looked up in the book.
import { useMemo, useState } from "react";
import { formatSfenKey, parseSfen, PIECE_LIMITS, STARTPOS_SFEN, withMoveNumber } from "../../../shared/rules/sfen";
import { setupProblem } from "./problem";
import { BLACK, WHITE, type Color } from "../../../shared/rules/types";
import { parseRoot } from "../../../shared/dig/root";
import { act, goTo, useStore } from "../store";
import { useT } from "../useT";
import { fill, type Key } from "../i18n";
import { pieceKanji } from "../logic";

const LETTERS = " PLNSBRGK";
/** The palette: base types then promoted ones (type codes of shared/rules/types). */
const PALETTE = [1, 2, 3, 4, 7, 5, 6, 8, 9, 10, 11, 12, 13, 14];
/** Hand types in the usual order: R B G S N L P. */
const HAND_TYPES = [6, 5, 7, 4, 3, 2, 1];
const RANKS = "一二三四五六七八九";
const FILE_DIGITS = "１２３４５６７８９";

interface Setup {
  board: Uint8Array;
  hands: Uint8Array;
  side: Color;
}

function fromSfen(sfen: string): Setup | null {
  const p = parseSfen(sfen);
  return typeof p === "string" ? null : { board: p.board, hands: p.hands, side: p.side };
}

/** A position as text: an SFEN, or a root as the Dig view's root field takes it ("startpos moves 7g7f", "sfen ... moves ..."). */
function fromText(text: string): Setup | null {
  const t = text.trim();
  if (!/^(startpos|sfen |position )/.test(t) && !/ moves( |$)/.test(t)) return fromSfen(t);
  try {
    const pos = parseRoot(t);
    return { board: pos.board.slice(), hands: pos.hands.slice(), side: pos.side };
  } catch {
    return null;
  }
}

/** The kanji of a piece code (colour << 4 | type). */
function kanji(code: number): string {
  const t = code & 15;
  const base = t === 8 ? 8 : t > 8 ? t - 8 : t;
  return pieceKanji({ type: LETTERS[base], promoted: t > 8, black: code >> 4 === 0 });
}

/** The letter of a piece code as in SFEN ("+p" for a white promoted pawn). */
function letter(code: number): string {
  const t = code & 15;
  const base = t === 8 ? 8 : t > 8 ? t - 8 : t;
  const l = (t > 8 ? "+" : "") + LETTERS[base];
  return code >> 4 === 0 ? l : l.toLowerCase();
}

export function SetupView() {
  const t = useT();
  const node = useStore((s) => s.node);
  const book = useStore((s) => s.book);
  const [setup, setSetup] = useState<Setup>(() => fromSfen(node?.sfen ?? book?.rootSfen ?? STARTPOS_SFEN)!);
  const [tool, setTool] = useState<number>(0); // a piece code, or 0 to remove
  const [color, setColor] = useState<Color>(BLACK);
  const [paste, setPaste] = useState("");
  const [message, setMessage] = useState<Key | null>(null);
  // A new root changes what every later dig works on: asked first (one click did it).
  const [askRoot, setAskRoot] = useState(false);

  const sfen = withMoveNumber(formatSfenKey(setup.board, setup.hands, setup.side));
  const problem = useMemo(() => setupProblem(setup.board, sfen), [setup.board, sfen]);

  const update = (f: (s: Setup) => void) => {
    const next = { board: setup.board.slice(), hands: setup.hands.slice(), side: setup.side };
    f(next);
    setSetup(next);
    setMessage(null);
  };
  const clickSquare = (sq: number) =>
    update((s) => {
      const code = tool === 0 ? 0 : (color << 4) | tool;
      // The same piece again removes it: a square toggles with the chosen piece.
      s.board[sq] = s.board[sq] === code ? 0 : code;
    });
  const load = (text: string) => {
    const got = fromText(text);
    if (got) {
      setSetup(got);
      setMessage(null);
    } else setMessage("setupBadSfen");
  };
  const find = async () => {
    const line = await act("book.lineTo", { sfen });
    if (line) {
      goTo(line);
      useStore.setState({ tab: "book" });
    } else if (line === null) setMessage("setupNotInBook");
  };
  const setRoot = async () => {
    setAskRoot(false);
    const info = await act("book.updateSettings", { settings: { root: sfen } });
    if (info) {
      useStore.setState({ book: info });
      setMessage("setupRootSet");
    }
  };

  const cells = [];
  for (let r = 1; r <= 9; r++) {
    for (let f = 9; f >= 1; f--) {
      const sq = (f - 1) * 9 + r - 1;
      const p = setup.board[sq];
      cells.push(
        <button
          key={sq}
          className={`setup-cell${p && p >> 4 === WHITE ? " white" : ""}${p && (p & 15) > 8 ? " promoted" : ""}`}
          data-square={`${f}${String.fromCharCode(96 + r)}`}
          data-piece={p ? letter(p) : ""}
          onClick={() => clickSquare(sq)}
          title={`${FILE_DIGITS[f - 1]}${RANKS[r - 1]}`}
        >
          {p ? kanji(p) : ""}
        </button>,
      );
    }
  }

  const hand = (c: Color) => (
    <div className="setup-hand" data-testid={`setup-hand-${c === BLACK ? "b" : "w"}`}>
      <strong>{c === BLACK ? t("setupBlackHand") : t("setupWhiteHand")}</strong>
      {HAND_TYPES.map((ty) => (
        <label key={ty} className="setup-hand-count">
          {kanji(ty)}
          <input
            type="number"
            min={0}
            max={PIECE_LIMITS[ty]}
            value={setup.hands[c * 8 + ty]}
            onChange={(e) =>
              update((s) => {
                s.hands[c * 8 + ty] = Math.max(0, Math.min(PIECE_LIMITS[ty], Math.floor(Number(e.target.value) || 0)));
              })
            }
            data-testid={`setup-hand-${c === BLACK ? "b" : "w"}-${LETTERS[ty]}`}
          />
        </label>
      ))}
    </div>
  );

  return (
    <div className="setup" data-testid="setup">
      <p className="dim">{t("setupHelp")}</p>
      <div className="row setup-tools">
        <span>{t("setupPiece")}:</span>
        <button className={color === BLACK ? "active" : ""} onClick={() => setColor(BLACK)} data-testid="setup-color-b">
          ▲{t("black")}
        </button>
        <button className={color === WHITE ? "active" : ""} onClick={() => setColor(WHITE)} data-testid="setup-color-w">
          △{t("white")}
        </button>
        {PALETTE.map((ty) => (
          <button
            key={ty}
            className={`setup-palette${tool === ty ? " active" : ""}${ty > 8 ? " promoted" : ""}`}
            onClick={() => setTool(ty)}
            data-testid={`setup-tool-${letter(ty)}`}
            title={letter((color << 4) | ty)}
            data-raw // the title is the piece's SFEN letter: notation, not a word
          >
            {kanji((color << 4) | ty)}
          </button>
        ))}
        <button className={tool === 0 ? "active" : ""} onClick={() => setTool(0)} data-testid="setup-tool-erase">
          ✕ {t("setupErase")}
        </button>
      </div>
      <div className="setup-main">
        {hand(WHITE)}
        {/* Coordinates as on the main board: files 9..1 above, ranks 一..九 on the right. */}
        <div className="setup-coords">
          <div className="setup-files" aria-hidden="true">
            {[9, 8, 7, 6, 5, 4, 3, 2, 1].map((f) => (
              <span key={f}>{f}</span>
            ))}
          </div>
          <div className="setup-board-row">
            <div className="setup-board" data-testid="setup-board">
              {cells}
            </div>
            <div className="setup-ranks" aria-hidden="true" data-testid="setup-ranks">
              {[...RANKS].map((r) => (
                <span key={r}>{r}</span>
              ))}
            </div>
          </div>
        </div>
        {hand(BLACK)}
      </div>
      <div className="row">
        <span>{t("setupSide")}:</span>
        <label>
          <input type="radio" checked={setup.side === BLACK} onChange={() => update((s) => (s.side = BLACK))} data-testid="setup-side-b" />▲
          {t("black")}
        </label>
        <label>
          <input type="radio" checked={setup.side === WHITE} onChange={() => update((s) => (s.side = WHITE))} data-testid="setup-side-w" />△
          {t("white")}
        </label>
        <button onClick={() => load(STARTPOS_SFEN)} data-testid="setup-startpos">
          {t("setupStartpos")}
        </button>
        <button onClick={() => update((s) => (s.board.fill(0), s.hands.fill(0)))} data-testid="setup-clear">
          {t("setupClear")}
        </button>
        <button onClick={() => node && load(node.sfen)} disabled={!node} data-testid="setup-from-board">
          {t("setupFromBoard")}
        </button>
      </div>
      <div className="row">
        <input
          type="text"
          className="mono grow"
          value={paste}
          placeholder="SFEN"
          onChange={(e) => setPaste(e.target.value)}
          spellCheck={false}
          data-testid="setup-paste"
        />
        <button onClick={() => load(paste)} data-testid="setup-load">
          {t("setupLoad")}
        </button>
      </div>
      <div className="row">
        <strong>SFEN</strong>
        <code className="mono setup-sfen" data-testid="setup-sfen">
          {sfen}
        </code>
      </div>
      {problem && (
        <div className="banner warn" data-testid="setup-problem" data-key={problem.key}>
          {t("setupNotRoot")}: {fill(t(problem.key), { ...problem.params, side: t(problem.params.side === "white" ? "white" : "black") })}
        </div>
      )}
      <div className="row">
        <button onClick={() => void find()} disabled={!!problem || !book} data-testid="setup-find">
          {t("setupFind")}
        </button>
        {!problem && (
          <button onClick={() => setAskRoot(true)} disabled={!book || book.readonly || askRoot} data-testid="setup-root">
            {t("setupUseRoot")}
          </button>
        )}
        <button onClick={() => void navigator.clipboard?.writeText(sfen)} data-testid="setup-copy">
          {t("setupCopy")}
        </button>
      </div>
      {askRoot && !problem && (
        <div className="confirm" role="alertdialog" data-testid="setup-root-confirm">
          <p>{t("setupRootAsk")}</p>
          <div className="row end">
            <button onClick={() => setAskRoot(false)} data-testid="setup-root-cancel">
              {t("cancel")}
            </button>
            <button onClick={() => void setRoot()} data-testid="setup-root-confirm-yes">
              {t("setupUseRoot")}
            </button>
          </div>
        </div>
      )}
      {message && (
        <div className="dim" data-testid="setup-message">
          {t(message)}
        </div>
      )}
    </div>
  );
}
