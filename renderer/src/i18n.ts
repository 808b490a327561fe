// UI labels in Japanese and English. Keys are the English text's short names; a missing
// Japanese entry falls back to English so a new label never shows up blank.
export type Lang = "ja" | "en";

const en = {
  appTitle: "horu",
  dig: "Dig", book: "Book", engines: "Engines", seed: "Seed", export: "Export", bans: "Banned",
  newBook: "New book", openBook: "Open book", closeBook: "Close", recent: "Recent books", path: "Path",
  create: "Create", open: "Open", cancel: "Cancel", noBook: "No book is open. Create a new book or open one.",
  start: "Start", pause: "Pause", resume: "Resume", stop: "Stop", processes: "Processes per engine",
  state: "State", thought: "Positions thought", perHour: "Positions/hour", bookSize: "Book size",
  elapsed: "Elapsed", rootValue: "Root value", bookValue: "Book value", selection: "Selection", engine: "Engine",
  position: "Position", depth: "Depth", nodes: "Nodes", nps: "NPS", score: "Score", pv: "PV",
  rootValueChart: "Root value over time", throughputChart: "Positions/hour over time",
  bookPv: "Book PV from the root", inFlight: "In flight", none: "none",
  move: "Move", usi: "USI", engineValue: "Engine", searchValue: "Search", games: "Games", wins: "Wins",
  bound: "Bound", cyclic: "cyclic", parents: "parents", transposition: "transposition",
  root: "Root", back: "Back", flip: "Flip", copy: "Copy", copied: "Copied", sfen: "SFEN", kif: "KIF",
  tree: "Tree", expand: "Expand", notThought: "not thought", inFlightNode: "being thought",
  provenance: "Thought by", limit: "Think limit (nodes)", save: "Save", settings: "Dig settings",
  commandLine: "Command line", browse: "Browse…", name: "Name", test: "Test connection", add: "Add engine",
  remove: "Remove", options: "Options", enabled: "Enabled", testOk: "Engine answered", update: "Save options",
  chooseFiles: "Choose game records", dropHint: "…or drop KIF/KI2/CSA/SFEN files anywhere on the window",
  file: "File", format: "Format", records: "Records", positions: "Positions", errors: "Errors", added: "Added to seeds",
  exportBook: "Export book", mode: "Mode", raw: "raw", minimax: "minimax", shrink: "Shrink",
  maxPly: "Max ply (0 = all)", evalLimit: "Eval limit (0 = none)", outPath: "Output file", run: "Export",
  wroteTo: "Wrote", reason: "Reason", line: "Line", noBans: "No banned moves.", language: "日本語",
  theme: "Theme", dark: "Dark", light: "Light", connection: "Connection lost; reconnecting…",
  error: "Error", moves: "Candidate moves", valueOf: "value", black: "Black", white: "White",
  keyHelp: "↑↓ select · → / Enter / double-click go · ← back · Home root",
  setRoot: "Root (SFEN or startpos moves …)", setLimit: "Think limit", movetime: "Time (ms)", auto: "auto", fixed: "fixed",
  setWindow: "Window (cp)", setKifuBonus: "Kifu bonus", setDrawBlack: "Draw value, black", setDrawWhite: "Draw value, white",
  setMaxPly: "Ply cap", setMaxLeafPly: "Max leaf ply (0 = none)", setEvalLimit: "Eval limit (0 = none)", setPrefetch: "Prefetch",
  mustBeInteger: "An integer in", badRoot: "Not a position", revert: "Revert",
  cyclicShare: "Selections trusting a cyclic value",
  settingsLive: "Saved settings apply to the next positions the dig hands out (the think timeout from the next start).",
} as const;

export type Key = keyof typeof en;

const ja: Partial<Record<Key, string>> = {
  appTitle: "掘る", dig: "掘削", book: "定跡", engines: "エンジン", seed: "棋譜シード", export: "書き出し", bans: "禁止手",
  newBook: "新規定跡", openBook: "定跡を開く", closeBook: "閉じる", recent: "最近の定跡", path: "パス",
  create: "作成", open: "開く", cancel: "キャンセル", noBook: "定跡が開かれていません。新規作成するか開いてください。",
  start: "開始", pause: "一時停止", resume: "再開", stop: "停止", processes: "エンジンごとのプロセス数",
  state: "状態", thought: "思考済み局面", perHour: "局面/時", bookSize: "定跡の局面数",
  elapsed: "経過時間", rootValue: "ルート評価値", bookValue: "定跡の評価値", selection: "選択", engine: "エンジン",
  position: "局面", depth: "深さ", nodes: "ノード数", nps: "NPS", score: "評価値", pv: "読み筋",
  rootValueChart: "ルート評価値の推移", throughputChart: "局面/時の推移",
  bookPv: "ルートからの定跡の最善手順", inFlight: "思考中", none: "なし",
  move: "指し手", usi: "USI", engineValue: "エンジン値", searchValue: "探索値", games: "対局数", wins: "勝数",
  bound: "境界", cyclic: "循環", parents: "親", transposition: "合流",
  root: "初期局面", back: "戻る", flip: "反転", copy: "コピー", copied: "コピーしました", sfen: "SFEN", kif: "KIF",
  tree: "ツリー", expand: "展開", notThought: "未思考", inFlightNode: "思考中",
  provenance: "思考", limit: "思考ノード数", save: "保存", settings: "掘削設定",
  commandLine: "コマンドライン", browse: "参照…", name: "名前", test: "接続テスト", add: "エンジン追加",
  remove: "削除", options: "オプション", enabled: "有効", testOk: "エンジン応答あり", update: "オプション保存",
  chooseFiles: "棋譜ファイルを選ぶ", dropHint: "…またはKIF/KI2/CSA/SFENファイルをウィンドウにドロップ",
  file: "ファイル", format: "形式", records: "棋譜数", positions: "局面数", errors: "エラー", added: "シードに追加",
  exportBook: "定跡の書き出し", mode: "方式", raw: "そのまま", minimax: "ミニマックス", shrink: "縮小",
  maxPly: "最大手数 (0 = 全部)", evalLimit: "評価値上限 (0 = なし)", outPath: "出力ファイル", run: "書き出す",
  wroteTo: "書き出し先", reason: "理由", line: "手順", noBans: "禁止手はありません。", language: "English",
  theme: "テーマ", dark: "ダーク", light: "ライト", connection: "接続が切れました。再接続中…",
  error: "エラー", moves: "候補手", valueOf: "評価値", black: "先手", white: "後手",
  keyHelp: "↑↓ 選択 · → / Enter / ダブルクリック 進む · ← 戻る · Home 初期局面",
  setRoot: "ルート局面 (SFEN または startpos moves …)", setLimit: "思考の制限", movetime: "時間 (ms)", auto: "自動", fixed: "固定",
  setWindow: "採用幅 (cp)", setKifuBonus: "棋譜ボーナス", setDrawBlack: "引き分けの値 (先手)", setDrawWhite: "引き分けの値 (後手)",
  setMaxPly: "手数上限", setMaxLeafPly: "葉の最大手数 (0 = なし)", setEvalLimit: "評価値上限 (0 = なし)", setPrefetch: "先読み選択数",
  mustBeInteger: "次の範囲の整数:", badRoot: "局面として読めません", revert: "元に戻す",
  cyclicShare: "循環値を信用した選択の割合",
  settingsLive: "保存した設定は次に渡す局面から適用されます (思考タイムアウトは次の開始から)。",
};

export function translate(lang: Lang, key: Key): string {
  return (lang === "ja" ? ja[key] : undefined) ?? en[key];
}

export const dictionaries = { en, ja };
