// JSON as devices and Python write it: NaN/Infinity tokens and 64-bit integers survive the parse
// (the CLI's --records files and the log import read the same lines).

const NON_FINITE = /^-?(?:NaN|Infinity)/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/**
 * JSON.parse, except that Python's NaN / Infinity / -Infinity tokens and integers beyond 2^53 are
 * read as strings, which fromPlain turns back into the exact float or bigint the field holds.
 */
export function parseJsonLenient(text: string): unknown {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === "-" || ch === "N" || ch === "I" || (ch >= "0" && ch <= "9")) {
      const rest = text.slice(i, i + 400);
      const nf = NON_FINITE.exec(rest);
      if (nf) {
        out += JSON.stringify(nf[0]);
        i += nf[0].length;
        continue;
      }
      const num = NUMBER.exec(rest);
      if (num) {
        const tok = num[0];
        const unsafeInt = /^-?\d+$/.test(tok) && !Number.isSafeInteger(Number(tok));
        out += unsafeInt ? JSON.stringify(tok) : tok;
        i += tok.length;
        continue;
      }
    }
    out += ch;
    i++;
  }
  return JSON.parse(out);
}
