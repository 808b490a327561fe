// The shogi board as SVG: pentagon pieces with kanji (promoted in red, white's turned
// 180°), both hands with counts, file numbers 9..1 on top and ranks 一..九 on the side,
// last-move highlight and arrows for the current node's candidate moves coloured by value.
import { memo, useMemo, useState } from "react";
import type { MoveView } from "../../../shared/api/contract";
import { moveSquares, parseBoard, pickMove, pieceKanji, valueColor, type Square } from "../logic";
import { useT } from "../useT";
import { fill } from "../i18n";

const CW = 40; // cell width
const CH = 44; // cell height (shogi squares are taller than wide)
const HAND_W = 56;
const MARGIN = 22; // room for the coordinates
const BX = HAND_W + 8; // board origin x
const BY = MARGIN;
const W = BX + CW * 9 + MARGIN + 8 + HAND_W;
// Below the board, a line for who moves next (its 12 px text stood 3 px into the board's edge).
const H = BY + CH * 9 + 18;
const RANKS = "一二三四五六七八九";
const FILE_DIGITS = "１２３４５６７８９";

export interface BoardProps {
  sfen: string;
  flipped: boolean;
  lastMove: string | null;
  moves: MoveView[];
  legal: string[];
  onMove: (usi: string) => void;
  /**
   * The number of the move to be played, when the caller knows it (a position reached in the
   * book: its key has no move number, so the SFEN's would say 1 at any depth).
   */
  moveNumber?: number;
}

/** A triangle at the end of an arrow (drawn by hand: marker colours cannot follow the stroke everywhere). */
function arrowHead(from: { x: number; y: number }, to: { x: number; y: number }, size: number): string {
  const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  const ux = (to.x - from.x) / len;
  const uy = (to.y - from.y) / len;
  const bx = to.x - ux * size;
  const by = to.y - uy * size;
  const w = size * 0.6;
  return `${to.x},${to.y} ${bx - uy * w},${by + ux * w} ${bx + uy * w},${by - ux * w}`;
}

function PiecePath({ x, y, up }: { x: number; y: number; up: boolean }) {
  const d = `M${CW / 2},3 L${CW - 6},10 L${CW - 3},${CH - 3} L3,${CH - 3} L6,10 Z`;
  return <path d={d} transform={`translate(${x},${y})${up ? "" : ` rotate(180 ${CW / 2} ${CH / 2})`}`} className="piece-body" />;
}

function PieceGlyph({ x, y, up, text, promoted }: { x: number; y: number; up: boolean; text: string; promoted: boolean }) {
  return (
    <g transform={`translate(${x},${y})${up ? "" : ` rotate(180 ${CW / 2} ${CH / 2})`}`}>
      <text x={CW / 2} y={CH / 2 + 9} textAnchor="middle" className={promoted ? "piece-text promoted" : "piece-text"}>
        {text}
      </text>
    </g>
  );
}

export const Board = memo(function Board({ sfen, flipped, lastMove, moves, legal, onMove, moveNumber }: BoardProps) {
  const t = useT();
  const model = useMemo(() => parseBoard(sfen), [sfen]);
  const [pick, setPick] = useState<Square | { drop: string } | null>(null);
  const [pickSfen, setPickSfen] = useState(sfen);
  if (pickSfen !== sfen) {
    // A new position drops any half-made gesture.
    setPickSfen(sfen);
    setPick(null);
  }
  if (!model) return <div className="board-error">SFEN?</div>;

  // Display cell (col, row) for a square, honouring the flip.
  const cell = (s: Square) => (flipped ? { col: s.file - 1, row: 9 - s.rank } : { col: 9 - s.file, row: s.rank - 1 });
  const centre = (s: Square) => {
    const c = cell(s);
    return { x: BX + c.col * CW + CW / 2, y: BY + c.row * CH + CH / 2 };
  };
  const last = lastMove ? moveSquares(lastMove) : null;
  const blackBottom = !flipped;
  const handX = (black: boolean) => (black === blackBottom ? BX + CW * 9 + MARGIN + 8 : 4);
  const handY0 = (black: boolean) => (black === blackBottom ? H - 12 - 7 * 40 : BY);

  const clickSquare = (s: Square) => {
    const p = model.squares[s.rank - 1][9 - s.file];
    const own = p && p.black === (model.side === "black");
    if (pick) {
      const usi = pickMove(legal, pick, s);
      if (usi) {
        setPick(null);
        onMove(usi);
        return;
      }
    }
    setPick(own ? s : null);
  };

  const arrows = moves
    .filter((m) => m.state !== "banned" && m.engineValue !== null)
    .slice(0, 8)
    .map((m, i) => ({ m, i, sq: moveSquares(m.usi) }))
    .filter((a) => a.sq)
    .reverse(); // best drawn last, on top

  const handOf = (black: boolean) => (black ? model.hands.black : model.hands.white);

  return (
    <svg className="board" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="shogi board" data-sfen={sfen}>
      <rect x={BX} y={BY} width={CW * 9} height={CH * 9} className="board-bg" />
      {Array.from({ length: 9 }, (_, c) => (
        <text key={`f${c}`} x={BX + c * CW + CW / 2} y={BY - 6} textAnchor="middle" className="coord">
          {FILE_DIGITS[flipped ? c : 8 - c]}
        </text>
      ))}
      {Array.from({ length: 9 }, (_, r) => (
        <text key={`r${r}`} x={BX + CW * 9 + 12} y={BY + r * CH + CH / 2 + 5} textAnchor="middle" className="coord">
          {RANKS[flipped ? 8 - r : r]}
        </text>
      ))}
      {last && (
        <>
          {last.from && (
            <rect x={BX + cell(last.from).col * CW} y={BY + cell(last.from).row * CH} width={CW} height={CH} className="last-from" />
          )}
          <rect x={BX + cell(last.to).col * CW} y={BY + cell(last.to).row * CH} width={CW} height={CH} className="last-to" />
        </>
      )}
      {pick && !("drop" in pick) && (
        <rect x={BX + cell(pick).col * CW} y={BY + cell(pick).row * CH} width={CW} height={CH} className="picked" />
      )}
      {Array.from({ length: 10 }, (_, i) => (
        <g key={`g${i}`} className="grid">
          <line x1={BX + i * CW} y1={BY} x2={BX + i * CW} y2={BY + 9 * CH} />
          <line x1={BX} y1={BY + i * CH} x2={BX + 9 * CW} y2={BY + i * CH} />
        </g>
      ))}
      {[3, 6].flatMap((a) => [3, 6].map((b) => <circle key={`d${a}${b}`} cx={BX + a * CW} cy={BY + b * CH} r={2.5} className="star" />))}
      {model.squares.flatMap((row, r) =>
        row.map((p, c) => {
          const s: Square = { file: 9 - c, rank: r + 1 };
          const { col, row: dr } = cell(s);
          const x = BX + col * CW;
          const y = BY + dr * CH;
          const up = p ? p.black === blackBottom : true;
          return (
            <g
              key={`${r}-${c}`}
              onClick={() => clickSquare(s)}
              className="square"
              data-square={`${s.file}${String.fromCharCode(96 + s.rank)}`}
            >
              <rect x={x} y={y} width={CW} height={CH} className="hit" />
              {p && <PiecePath x={x} y={y} up={up} />}
              {p && <PieceGlyph x={x} y={y} up={up} text={pieceKanji(p)} promoted={p.promoted} />}
            </g>
          );
        }),
      )}
      {[true, false].map((black) => {
        const x = handX(black);
        const y0 = handY0(black);
        const up = black === blackBottom;
        const list = handOf(black);
        return (
          <g key={black ? "hb" : "hw"} className={black ? "hand hand-black" : "hand hand-white"}>
            <text
              x={x + HAND_W / 2}
              y={black === blackBottom ? y0 + (7 - list.length) * 40 - 6 : y0 + list.length * 40 + 14}
              textAnchor="middle"
              className="hand-label"
            >
              {black ? "☗" : "☖"}
            </text>
            {list.map(([t, n], i) => {
              const yy = black === blackBottom ? y0 + (7 - list.length + i) * 40 : y0 + i * 40;
              const dropPicked = pick && "drop" in pick && pick.drop === t && black === (model.side === "black");
              return (
                <g
                  key={t}
                  transform={`translate(${x},${yy}) scale(0.9)`}
                  onClick={() => setPick(black === (model.side === "black") ? { drop: t } : null)}
                  className={dropPicked ? "hand-piece picked-hand" : "hand-piece"}
                  data-hand={`${black ? "b" : "w"}${t}`}
                >
                  <PiecePath x={0} y={0} up={up} />
                  <PieceGlyph x={0} y={0} up={up} text={pieceKanji({ type: t, promoted: false })} promoted={false} />
                  {n > 1 && (
                    <text x={CW + 4} y={CH / 2 + 6} className="hand-count">
                      {n}
                    </text>
                  )}
                </g>
              );
            })}
          </g>
        );
      })}
      <g className="arrows" pointerEvents="none">
        {arrows.map(({ m, i, sq }) => {
          const to = centre(sq!.to);
          const moverBlack = model.side === "black";
          const from = sq!.from
            ? centre(sq!.from)
            : { x: handX(moverBlack) + HAND_W / 2, y: moverBlack === blackBottom ? H - 40 : BY + 20 };
          return (
            <g key={m.usi} data-arrow={m.usi} opacity={i === 0 ? 0.85 : 0.55}>
              <line
                x1={from.x}
                y1={from.y}
                x2={to.x - ((to.x - from.x) * 0.25) / Math.max(1, Math.hypot(to.x - from.x, to.y - from.y) / CW)}
                y2={to.y - ((to.y - from.y) * 0.25) / Math.max(1, Math.hypot(to.x - from.x, to.y - from.y) / CW)}
                stroke={valueColor(m.engineValue)}
                strokeWidth={i === 0 ? 7 : 4}
                strokeDasharray={sq!.from ? undefined : "6 4"}
                strokeLinecap="round"
              />
              <polygon points={arrowHead(from, to, i === 0 ? 16 : 12)} fill={valueColor(m.engineValue)} />
            </g>
          );
        })}
      </g>
      {/* Who moves next and the move number (the caller's, else the SFEN's), said in words. */}
      <text x={4} y={H - 3} className="side-to-move" data-testid="side-to-move">
        {fill(t("sideToMove"), { side: model.side === "black" ? "☗" : "☖", n: moveNumber ?? model.ply })}
      </text>
    </svg>
  );
});
