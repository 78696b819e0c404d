// eslint-plugin-import resolver for our package.json "imports" aliases (#codecs, #host/*, …): Node's own
// require.resolve reads the "imports" field, so the layering zones see the real file behind an alias.
// (eslint-import-resolver-node, the default, predates "imports"; this is the few lines it lacks.)
"use strict";
const { createRequire } = require("node:module");

exports.interfaceVersion = 2;

exports.resolve = function resolve(source, file) {
  if (!source.startsWith("#")) return { found: false };
  try {
    return { found: true, path: createRequire(file).resolve(source) };
  } catch {
    return { found: false };
  }
};
