#!/usr/bin/env node
// One-time codemod (idempotent): deep relative imports that leave their top-level folder
// ("../../../../codecs/src/layout/schema.ts") become the package.json "imports" aliases
// ("#codecs/layout/schema.ts"), and imports of codec internals from outside codecs/ become "#codecs" when
// every name they take is on the public surface (codecs/src/index.ts) from that same module.
//   node scripts/codemods/aliases.mjs            rewrite the files, print what changed
//   node scripts/codemods/aliases.mjs --check    change nothing; exit 1 if a file would change
// Only specifier strings are replaced: the rest of each file keeps its bytes (formatting is Prettier's job).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync, traverse } from "@babel/core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SKIP_DIRS = new Set(["node_modules", "dist", "out", ".git", ".cache", ".venv", ".tmp", "artifacts"]);
const SOURCE = /\.(ts|tsx|mts|cts|mjs)$/;
const SURFACE = "#codecs";
// the surface re-exports from codecs/src: importing it from inside the codec layer would make a cycle
const SURFACE_USERS_EXCLUDE = new Set(["codecs", "firmware"]);
// calls whose first argument is a module specifier
const SPECIFIER_CALLS = new Set([
  "vi.mock",
  "vi.doMock",
  "vi.unmock",
  "vi.doUnmock",
  "vi.importActual",
  "vi.importMock",
]);

const posix = (p) => p.split(path.sep).join("/");
const topFolder = (rel) => (rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : null);

/** "#x/*": "./dir/*" entries of package.json "imports", longest directory first. */
function aliasTable() {
  const { imports = {} } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const out = [];
  for (const [key, target] of Object.entries(imports)) {
    if (typeof target !== "string" || !key.endsWith("/*") || !target.endsWith("/*")) continue;
    out.push({ alias: key.slice(0, -1), dir: posix(path.normalize(target.slice(0, -1))) });
  }
  if (!out.length) throw new Error('package.json has no "imports" patterns ("#name/*": "./folder/*")');
  return out.sort((a, b) => b.dir.length - a.dir.length);
}

function sourceFiles(dir = ROOT, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) sourceFiles(path.join(dir, e.name), out);
    } else if (SOURCE.test(e.name) && !e.name.endsWith(".d.ts")) out.push(path.join(dir, e.name));
  }
  return out;
}

function parse(file, code) {
  return parseSync(code, {
    filename: file,
    babelrc: false,
    configFile: false,
    sourceType: "module",
    parserOpts: {
      plugins: ["typescript", ...(file.endsWith(".tsx") ? ["jsx"] : [])],
      createParenthesizedExpressions: true,
    },
  });
}

const calleeName = (c) =>
  c.type === "Import"
    ? "import"
    : c.type === "MemberExpression" && c.object.type === "Identifier" && c.property.type === "Identifier"
      ? `${c.object.name}.${c.property.name}`
      : null;

/** Every string literal of the file that names a module, with the declaration it belongs to (if any). */
function specifiers(ast) {
  const found = [];
  traverse(ast, {
    ImportDeclaration: (p) => void found.push({ lit: p.node.source, decl: p.node }),
    ExportNamedDeclaration: (p) => void (p.node.source && found.push({ lit: p.node.source, decl: p.node })),
    ExportAllDeclaration: (p) => void found.push({ lit: p.node.source, decl: null }),
    TSImportType: (p) => {
      const a = p.node.argument;
      const lit = a.type === "TSLiteralType" ? a.literal : a;
      if (lit.type === "StringLiteral") found.push({ lit, decl: null });
    },
    CallExpression: (p) => {
      const name = calleeName(p.node.callee);
      const a = p.node.arguments[0];
      if ((name === "import" || SPECIFIER_CALLS.has(name)) && a?.type === "StringLiteral")
        found.push({ lit: a, decl: null });
    },
  });
  return found;
}

// ---- the public surface: name → the codecs/src module it is exported from ----
const exportCache = new Map();
/** names a codecs module re-exports from which module: { all: [modules of export *], named: Map<name, module> } */
function reexports(abs) {
  if (exportCache.has(abs)) return exportCache.get(abs);
  const info = { all: [], named: new Map() };
  let code;
  try {
    code = readFileSync(abs, "utf8");
  } catch {
    exportCache.set(abs, info);
    return info;
  }
  for (const node of parse(abs, code).program.body) {
    if (!node.source) continue;
    const from = path.resolve(path.dirname(abs), node.source.value);
    if (node.type === "ExportAllDeclaration" && !node.exported) info.all.push(from);
    if (node.type === "ExportNamedDeclaration")
      for (const s of node.specifiers)
        if (s.type === "ExportSpecifier") info.named.set(s.exported.name ?? s.exported.value, from);
  }
  exportCache.set(abs, info);
  return info;
}

function surface(imports) {
  const index = path.join(ROOT, imports[SURFACE].replace(/^\.\//, ""));
  return reexports(index).named;
}

/** May `name`, imported from module `abs`, come from the surface instead (same declaration)? */
function onSurface(name, abs, surfaceNames) {
  const origin = surfaceNames.get(name);
  if (!origin) return false;
  if (origin === abs) return true;
  // one hop: the module re-exports the name from where the surface takes it
  const r = reexports(abs);
  return r.named.get(name) === origin || r.all.includes(origin);
}

function rewrite(file, aliases, surfaceNames, imports) {
  const code = readFileSync(file, "utf8");
  const rel = posix(path.relative(ROOT, file));
  const home = topFolder(rel);
  if (!home) return null; // files at the root (configs) import with ./, never deep
  let ast;
  try {
    ast = parse(file, code);
  } catch (e) {
    throw new Error(`${rel}: cannot parse: ${e.message}`);
  }
  const edits = [];
  const surfaceImports = [];
  let toAlias = 0;
  let toSurface = 0;
  for (const { lit, decl } of specifiers(ast)) {
    let spec = lit.value;
    if (spec.startsWith("../")) {
      const target = posix(path.relative(ROOT, path.resolve(path.dirname(file), spec)));
      const to = topFolder(target);
      if (!to || to === home || target.startsWith("..")) continue;
      const a = aliases.find((x) => target.startsWith(x.dir));
      if (!a) continue;
      spec = a.alias + target.slice(a.dir.length);
      toAlias++;
    }
    const codecsDeep = "#codecs/";
    if (decl && spec.startsWith(codecsDeep) && !SURFACE_USERS_EXCLUDE.has(home) && decl.specifiers.length > 0) {
      const abs = path.join(
        ROOT,
        imports["#codecs/*"].replace(/^\.\//, "").replace(/\*$/, ""),
        spec.slice(codecsDeep.length),
      );
      const names = decl.specifiers.map((s) =>
        s.type === "ImportSpecifier"
          ? (s.imported.name ?? s.imported.value)
          : s.type === "ExportSpecifier"
            ? s.local.name
            : null,
      );
      if (names.every((n) => n !== null && onSurface(n, abs, surfaceNames))) {
        spec = SURFACE;
        toSurface++;
      }
    }
    if (spec !== lit.value) edits.push({ start: lit.start, end: lit.end, text: JSON.stringify(spec) });
    if (spec === SURFACE && decl?.type === "ImportDeclaration") surfaceImports.push(decl);
  }
  // several modules' imports now name "#codecs": one import statement takes them all
  if (surfaceImports.length > 1) {
    const covered = new Set(surfaceImports);
    const kept = edits.filter((e) => ![...covered].some((d) => e.start >= d.start && e.end <= d.end));
    edits.length = 0;
    edits.push(...kept, ...mergeImports(code, surfaceImports));
  }
  if (!edits.length) return null;
  let out = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { rel, out, toAlias, toSurface };
}

/** Edits that turn several `import … from "#codecs"` statements into the first one:
 *  `type` kept per name (`import type { … }` when every name is a type), names in alphabetical order. */
function mergeImports(code, decls) {
  const names = [];
  for (const d of decls)
    for (const s of d.specifiers) {
      const text = code.slice(s.start, s.end).replace(/^type\s+/, "");
      const isType = d.importKind === "type" || s.importKind === "type";
      if (!names.some((n) => n.text === text && n.isType === isType)) names.push({ text, isType });
    }
  names.sort((a, b) => a.text.localeCompare(b.text, "en", { sensitivity: "base" }));
  const allTypes = names.every((n) => n.isType);
  const list = names.map((n) => (n.isType && !allTypes ? `type ${n.text}` : n.text)).join(", ");
  const [first, ...rest] = decls;
  const edits = [
    { start: first.start, end: first.end, text: `import ${allTypes ? "type " : ""}{ ${list} } from "${SURFACE}";` },
  ];
  for (const d of rest) {
    // the statement and the line break after it
    const end = code[d.end] === "\n" ? d.end + 1 : code.slice(d.end, d.end + 2) === "\r\n" ? d.end + 2 : d.end;
    edits.push({ start: d.start, end, text: "" });
  }
  return edits;
}

function main() {
  const check = process.argv.includes("--check");
  const { imports = {} } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  if (!imports[SURFACE] || !imports["#codecs/*"])
    throw new Error(`package.json "imports" needs "${SURFACE}" and "#codecs/*"`);
  const aliases = aliasTable();
  const surfaceNames = surface(imports);
  let files = 0;
  let toAlias = 0;
  let toSurface = 0;
  for (const file of sourceFiles()) {
    const r = rewrite(file, aliases, surfaceNames, imports);
    if (!r) continue;
    files++;
    toAlias += r.toAlias;
    toSurface += r.toSurface;
    if (check) console.log(`would change ${r.rel}`);
    else writeFileSync(file, r.out);
  }
  console.log(
    `${check ? "would change" : "changed"} ${files} files: ${toAlias} deep relative imports to aliases, ${toSurface} codec imports to ${SURFACE}`,
  );
  if (check && files) process.exit(1);
}

main();
