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
  settingsLocked: "Stop the dig to change its settings.",
  // Working on the book, tools, read-only windows (issue 11)
  work: "This position", thinkNow: "Think now", thinkNowHelp: "Think this position next, ahead of selection",
  thinkDeeper: "Think deeper", thinkDeeperHelp: "Think it again with 4x the book's limit; the new result replaces the old one",
  addMove: "Add this move", addMoveHelp: "Add the move just played: its position is thought next",
  retry: "Retry", retryAll: "Retry failed", retried: "Released for thinking", queued: "queued", failedState: "failed",
  prune: "Prune", pruneHelp: "Remove this position and what is below it only through it (undo keeps it)",
  pruneConfirm: "Prune this position and its subtree? (Undo puts it back.)", pruned: "Pruned positions",
  undoPrune: "Undo prune", restored: "Restored positions", queuedFirst: "Queued first", queuedDeeper: "Queued first with a deeper limit",
  addedMove: "Added: its position is thought next", commentPlaceholder: "Comment on this position (stored in the book)",
  stopDigFirst: "Stop the dig first",
  readOnlyBanner: "Read-only: another process is writing this book; this window follows it live and cannot change it.",
  writerIs: "Writer:", writerHelp: "This window holds the writer lock of the book (pid @ host)",
  tools: "Tools", importBooks: "Import books", importBooksHelp: "YaneuraOu DB2016 (.db, streamed) and Apery (.bin) books become thought positions.",
  chooseBooks: "Choose .db / .bin books", serverPath: "Path on the server", importRun: "Import", linesUnit: "lines", movesCount: "Moves",
  seedFolder: "Seed a folder", seedFolderHelp: "Every game record in the folder (and its subfolders) becomes a kifu seed.",
  chooseFolder: "Choose a folder", seedRun: "Seed",
  backups: "Backups", backupNow: "Back up now", backupEvery: "Every", minutesUnit: "min", backupKeep: "Keep",
  backupDir: "Backup folder", besideBook: "beside the book", backupScheduleSet: "Set schedule", backupScheduleOff: "Stop schedule",
  noSchedule: "No scheduled backups", when: "When", size: "Size", restore: "Restore", restoreFrom: "Restore from a file",
  restoreConfirm: "Replace the book with this backup? (The book as it is now is kept beside it.)",
  removeBan: "Remove ban", plyUnit: "ply",
  // States shown to users
  "digState.idle": "idle", "digState.starting": "starting", "digState.digging": "digging", "digState.pausing": "pausing",
  "digState.paused": "paused", "digState.stopping": "stopping", "digState.stopped": "stopped",
  "engineState.idle": "idle", "engineState.starting": "starting", "engineState.thinking": "thinking", "engineState.restarting": "restarting",
  "engineState.failed": "failed", "engineState.stopped": "stopped",
  "moveState.thought": "thought", "moveState.in-flight": "being thought", "moveState.leaf": "leaf", "moveState.banned": "banned", "moveState.failed": "failed",
  "banReason.repetition": "repetition", "banReason.terminal": "mate / declaration", "banReason.ply-cap": "ply cap", "banReason.limit": "beyond the limits",
  // Host errors by key
  "err.missingFile": "{path} does not exist", "err.noBookOpen": "No book is open: create or open one first.",
  "err.readOnlyHeld": "Read-only: pid {pid} on {host} is writing this book; stop that process to change it here.",
  "err.readOnly": "Read-only: this book was opened while another process was writing it; open it again to write.",
  "err.stopDigFirst": "Stop the dig first.", "err.alreadyDigging": "Already digging.", "err.noEngine": "No engine: add one (Engines) before digging.",
  "err.restoreSelf": "That is the open book itself, not a backup.", "err.badBackup": "{path} is damaged.",
  "err.notABook": "{path}: not a book file (.db for YaneuraOu DB2016, .bin for Apery).",
  "err.beingThought": "This position is being thought now.", "err.illegalMove": "That move is not legal here.",
  "err.notThought": "This position is not a thought position of the book.", "err.pruneRoot": "The root cannot be pruned.",
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
  settingsLocked: "設定を変えるには掘削を停止してください。",
  work: "この局面", thinkNow: "今すぐ思考", thinkNowHelp: "選択より先にこの局面を次に思考します",
  thinkDeeper: "深く再思考", thinkDeeperHelp: "定跡の制限の4倍でもう一度思考し、新しい結果で置き換えます",
  addMove: "この手を追加", addMoveHelp: "指した手を定跡に追加し、その局面を次に思考します",
  retry: "再試行", retryAll: "失敗局面を再試行", retried: "思考待ちに戻しました", queued: "思考待ち", failedState: "失敗",
  prune: "枝を削除", pruneHelp: "この局面と、この局面を通ってしか届かない下の局面を削除します (元に戻せます)",
  pruneConfirm: "この局面とその下の枝を削除しますか? (元に戻せます)", pruned: "削除した局面",
  undoPrune: "削除を元に戻す", restored: "戻した局面", queuedFirst: "先頭に追加しました", queuedDeeper: "深い制限で先頭に追加しました",
  addedMove: "追加しました: その局面を次に思考します", commentPlaceholder: "この局面へのコメント (定跡に保存)",
  stopDigFirst: "先に掘削を停止してください",
  readOnlyBanner: "読み取り専用: 別のプロセスがこの定跡に書き込んでいます。このウィンドウは最新の状態を表示しますが変更はできません。",
  writerIs: "書き込み中:", writerHelp: "このウィンドウが定跡の書き込みロックを持っています (pid @ ホスト)",
  tools: "管理", importBooks: "定跡の取り込み", importBooksHelp: "やねうら王 DB2016 (.db、逐次読み込み) と Apery (.bin) の定跡を思考済み局面として取り込みます。",
  chooseBooks: ".db / .bin 定跡を選ぶ", serverPath: "サーバー上のパス", importRun: "取り込む", linesUnit: "行", movesCount: "指し手数",
  seedFolder: "フォルダーから棋譜シード", seedFolderHelp: "フォルダー (とその下のフォルダー) の棋譜をすべて棋譜シードにします。",
  chooseFolder: "フォルダーを選ぶ", seedRun: "シードする",
  backups: "バックアップ", backupNow: "今すぐバックアップ", backupEvery: "間隔", minutesUnit: "分", backupKeep: "保持数",
  backupDir: "バックアップ先", besideBook: "定跡と同じフォルダー", backupScheduleSet: "定期バックアップを設定", backupScheduleOff: "定期バックアップを止める",
  noSchedule: "定期バックアップなし", when: "日時", size: "サイズ", restore: "復元", restoreFrom: "ファイルから復元",
  restoreConfirm: "定跡をこのバックアップで置き換えますか? (今の定跡は横に保存されます)",
  removeBan: "禁止を解除", plyUnit: "手",
  "digState.idle": "待機中", "digState.starting": "起動中", "digState.digging": "掘削中", "digState.pausing": "一時停止中…",
  "digState.paused": "一時停止", "digState.stopping": "停止中…", "digState.stopped": "停止",
  "engineState.idle": "待機中", "engineState.starting": "起動中", "engineState.thinking": "思考中", "engineState.restarting": "再起動中",
  "engineState.failed": "失敗", "engineState.stopped": "停止",
  "moveState.thought": "思考済み", "moveState.in-flight": "思考中", "moveState.leaf": "葉", "moveState.banned": "禁止", "moveState.failed": "失敗",
  "banReason.repetition": "千日手", "banReason.terminal": "詰み・宣言", "banReason.ply-cap": "手数上限", "banReason.limit": "制限外",
  "err.missingFile": "{path} がありません", "err.noBookOpen": "定跡が開かれていません。新規作成するか開いてください。",
  "err.readOnlyHeld": "読み取り専用: {host} の pid {pid} がこの定跡に書き込んでいます。ここで変更するにはそのプロセスを止めてください。",
  "err.readOnly": "読み取り専用: 別のプロセスが書き込み中に開いた定跡です。書き込むには開き直してください。",
  "err.stopDigFirst": "先に掘削を停止してください。", "err.alreadyDigging": "すでに掘削中です。", "err.noEngine": "エンジンがありません。掘削の前に「エンジン」で追加してください。",
  "err.restoreSelf": "それは開いている定跡そのもので、バックアップではありません。", "err.badBackup": "{path} は壊れています。",
  "err.notABook": "{path}: 定跡ファイルではありません (やねうら王 DB2016 は .db、Apery は .bin)。",
  "err.beingThought": "この局面は今思考中です。", "err.illegalMove": "その手はこの局面で指せません。",
  "err.notThought": "この局面は定跡の思考済み局面ではありません。", "err.pruneRoot": "ルート局面は削除できません。",
};

export function translate(lang: Lang, key: Key): string {
  return (lang === "ja" ? ja[key] : undefined) ?? en[key];
}

export const dictionaries = { en, ja };

/** A label for a state the host reports (dig, engine, move, ban reason); unknown values as they are. */
export function stateLabel(lang: Lang, kind: "digState" | "engineState" | "moveState" | "banReason", value: string): string {
  const key = `${kind}.${value}`;
  return Object.hasOwn(en, key) ? translate(lang, key as Key) : value;
}

/** A host error in the UI's language: by its key (with parameters) when it has one, else its message. */
export function translateError(lang: Lang, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const key = (e as { key?: unknown } | null)?.key;
  if (typeof key !== "string" || !Object.hasOwn(en, `err.${key}`)) return message;
  const params = ((e as { params?: unknown }).params ?? {}) as Record<string, string | number>;
  return translate(lang, `err.${key}` as Key).replace(/\{(\w+)\}/g, (_, p: string) => String(params[p] ?? ""));
}
