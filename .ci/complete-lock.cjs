// This machine's npm registry mirror answers 404 for other platforms' optional packages (rollup,
// cbor-extract binaries), so `npm install` here writes a lock without them and `npm ci` elsewhere
// then refuses it as "out of sync". This lists them (version only) as a complete lock would.
// `node .ci/complete-lock.cjs` fixes package-lock.json; `--check` only reports (CI uses it).
const fs = require("fs");
const path = require("path");
const file = path.join(__dirname, "..", "package-lock.json");
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const missing = [];
for (const entry of Object.values(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    lock.packages[key] = { version: spec.replace(/^[~^]/, ""), optional: true, ...(entry.dev ? { dev: true } : {}) };
    missing.push(name);
  }
}
if (process.argv.includes("--check")) {
  if (missing.length) {
    console.error(
      `package-lock.json lacks ${missing.length} optional platform packages (${missing.join(" ")}): run node .ci/complete-lock.cjs`,
    );
    process.exit(1);
  }
  process.exit(0);
}
const byName = ([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0);
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(byName));
fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(lock, null, 2)}\n`);
fs.renameSync(`${file}.tmp`, file);
console.log(missing.length ? `listed ${missing.length} optional platform packages` : "package-lock.json is complete");
