// Lint rules for the architecture: the layers of shared/, electron/ and renderer/ (a module imports only
// from its own folder or a lower layer) and no import cycles between modules.
import fs from "node:fs";
import path from "node:path";

/**
 * The layers, lowest first. A folder may import from itself and from the folders before it.
 * shared/ is pure TypeScript used by every process; electron/ is the Node side: the services
 * (paths, store … host), then the shells that drive them (web server, Electron main, benchmarks, CLI);
 * renderer/ is the UI. A layer is a folder or, for the renderer's top-level modules, one file.
 */
export const LAYERS = [
  "shared/util",
  "shared/rules",
  "shared/book",
  "shared/usi",
  "shared/formats",
  "shared/export",
  "shared/horu-engine",
  "shared/synth",
  "shared/match",
  "shared/dig",
  "shared/api",
  "electron/paths",
  "electron/process",
  "electron/store",
  "electron/formats",
  "electron/engines",
  "electron/book",
  "electron/export",
  "electron/dig",
  "electron/match",
  "electron/host",
  "electron/web",
  "electron/main",
  "electron/bench",
  "electron/cli",
  // The renderer (it imports shared/ and never electron/: eslint.config.js): pure helpers, the
  // host clients, the store, then the parts, the tree, the tabs, the app and its entry.
  "renderer/src/logic.ts",
  "renderer/src/i18n.ts",
  "renderer/src/settingsForm.ts",
  "renderer/src/host",
  "renderer/src/store.ts",
  "renderer/src/useT.ts",
  "renderer/src/board",
  "renderer/src/charts",
  "renderer/src/parts",
  "renderer/src/tree",
  "renderer/src/views",
  "renderer/src/setup",
  "renderer/src/record",
  "renderer/src/analysis",
  "renderer/src/quality",
  "renderer/src/App.tsx",
  "renderer/src/main.tsx",
];

const root = process.cwd();
const rel = (file) => path.relative(root, file).split(path.sep).join("/");
const layerOf = (file) => LAYERS.findIndex((l) => file === l || file.startsWith(l + "/"));
/** A test file (run by vitest): nothing imports it. */
const isTestFile = (file) => /\.test\.tsx?$/.test(file);
/** A test helper: a testing/ folder (shared/testing, electron/testing, electron/x/testing, e2e/testing) or e2e/. */
const isTesting = (file) => /(^|\/)testing\//.test(file) || /^e2e\//.test(file);
/** Test code: outside the product's layers (it may import product code from any layer; the product never imports it). */
const isTest = (file) => isTestFile(file) || isTesting(file);

/** Relative static imports of a source text (dynamic import() is lazy loading and may point anywhere below). */
function staticImports(text) {
  const out = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+["'](\.\.?\/[^"']+)["']/gm)) out.push(m[1]);
  for (const m of text.matchAll(/^\s*import\s+["'](\.\.?\/[^"']+)["']/gm)) out.push(m[1]);
  return out;
}

function resolve(fromFile, spec) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  for (const c of [base, base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), base + ".ts", base + ".tsx", base + "/index.ts"]) {
    if (fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile()) return c;
  }
  return null;
}

let graph = null;
/** The static import graph of the product and its test helpers (test files excluded), built once per lint run. */
function productGraph() {
  if (graph) return graph;
  graph = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const p = dir + "/" + e.name;
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !isTestFile(p)) {
        const text = fs.readFileSync(path.join(root, p), "utf8");
        graph.set(
          p,
          staticImports(text)
            .map((s) => resolve(p, s))
            .filter((t) => t && !isTestFile(t)),
        );
      }
    }
  };
  for (const top of ["shared", "electron", "renderer", "e2e"]) if (fs.existsSync(path.join(root, top))) walk(top);
  return graph;
}

/** A path back to `start` through `next`, or null (depth-first; the graph is small). */
function cycleThrough(start, next) {
  const g = productGraph();
  const seen = new Set();
  const stack = [[next, [start, next]]];
  while (stack.length > 0) {
    const [node, trail] = stack.pop();
    if (node === start) return trail;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const t of g.get(node) ?? []) stack.push([t, [...trail, t]]);
  }
  return null;
}

const layers = {
  meta: {
    type: "problem",
    schema: [],
    messages: { up: "{{from}} is below {{to}}: a lower layer must not import a higher one (layers in scripts/lint/architecture.js)." },
  },
  create(context) {
    const file = rel(context.filename);
    const mine = layerOf(file);
    if (mine < 0 || isTest(file)) return {};
    const check = (node, spec) => {
      if (typeof spec !== "string" || !spec.startsWith(".")) return;
      const target = resolve(file, spec);
      if (!target || isTest(target)) return;
      const theirs = layerOf(target);
      if (theirs > mine) context.report({ node, messageId: "up", data: { from: LAYERS[mine], to: LAYERS[theirs] } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

const noCycle = {
  meta: { type: "problem", schema: [], messages: { cycle: "import cycle: {{trail}}" } },
  create(context) {
    const file = rel(context.filename);
    if (isTestFile(file) || !productGraph().has(file)) return {};
    const check = (node, spec) => {
      if (typeof spec !== "string" || !spec.startsWith(".")) return;
      const target = resolve(file, spec);
      if (!target || isTestFile(target)) return;
      const trail = cycleThrough(file, target);
      if (trail) context.report({ node, messageId: "cycle", data: { trail: trail.join(" -> ") } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
    };
  },
};

/**
 * Test helpers (testing/ folders, e2e/) may import product code from any layer and other
 * helpers, but never a test file: importing one would run its tests wherever the helper is used.
 */
const testing = {
  meta: { type: "problem", schema: [], messages: { test: "{{from}} is a test helper: it must not import the test file {{to}}." } },
  create(context) {
    const file = rel(context.filename);
    if (!isTesting(file) || isTestFile(file)) return {};
    const check = (node, spec) => {
      if (typeof spec !== "string" || !spec.startsWith(".")) return;
      const target = resolve(file, spec);
      if (target && isTestFile(target)) context.report({ node, messageId: "test", data: { from: file, to: target } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

export default { rules: { layers, "no-cycle": noCycle, testing } };
