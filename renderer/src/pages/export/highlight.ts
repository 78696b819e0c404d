// A small syntax highlighter for the export preview: comments, strings, numbers, keywords and (for
// XML / JSON / YAML) tags and keys. Tokens only colour text; the text itself is never changed.

export type TokenKind = "plain" | "comment" | "string" | "number" | "keyword" | "tag" | "attr" | "key" | "punct";
export interface Token {
  kind: TokenKind;
  text: string;
}

type Rule = [TokenKind, RegExp];

const words = (list: string) => new RegExp(`\\b(?:${list.split(" ").join("|")})\\b`, "y");

const C_LIKE_COMMENTS: Rule[] = [
  ["comment", /\/\/[^\n]*/y],
  ["comment", /\/\*[\s\S]*?(?:\*\/|$)/y],
];
const STRINGS: Rule[] = [
  ["string", /"(?:[^"\\\n]|\\.)*"?/y],
  ["string", /'(?:[^'\\\n]|\\.)*'?/y],
];
const NUMBER: Rule = ["number", /-?\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[uUlLfF]*\b/y];

const RULES: Record<string, Rule[]> = {
  proto: [
    ...C_LIKE_COMMENTS,
    ...STRINGS,
    [
      "keyword",
      words("syntax package import option message enum repeated optional reserved to oneof map service rpc returns"),
    ],
    [
      "keyword",
      words("double float int32 int64 uint32 uint64 sint32 sint64 fixed32 fixed64 sfixed32 sfixed64 bool string bytes"),
    ],
    NUMBER,
  ],
  c: [
    ["keyword", /#\s*\w+/y],
    ...C_LIKE_COMMENTS,
    ...STRINGS,
    [
      "keyword",
      words(
        "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false NULL uint8_t uint16_t uint32_t uint64_t int8_t int16_t int32_t int64_t size_t",
      ),
    ],
    NUMBER,
  ],
  js: [
    ...C_LIKE_COMMENTS,
    ...STRINGS,
    [
      "keyword",
      words(
        "var let const function return if else for while do switch case default break continue try catch finally throw new typeof instanceof in of this null undefined true false delete void",
      ),
    ],
    NUMBER,
  ],
  json: [["key", /"(?:[^"\\\n]|\\.)*"(?=\s*:)/y], ...STRINGS, ["keyword", words("true false null")], NUMBER],
  yaml: [
    ["comment", /#[^\n]*/y],
    ["key", /(?<=^|\n)[ \t]*(?:- )?[A-Za-z0-9_"'-][^:\n#]*(?=:(?:\s|$))/y],
    ...STRINGS,
    ["keyword", words("true false null")],
    NUMBER,
  ],
  xml: [
    ["comment", /<!--[\s\S]*?(?:-->|$)/y],
    ["tag", /<\/?[A-Za-z_][\w:.-]*|\/?>|<\?xml|\?>/y],
    ["attr", /[A-Za-z_][\w:.-]*(?==)/y],
    ...STRINGS,
  ],
  python: [
    ["comment", /#[^\n]*/y],
    ...STRINGS,
    [
      "keyword",
      words(
        "def class return if elif else for while import from as with try except finally raise None True False and or not in is pass lambda",
      ),
    ],
    NUMBER,
  ],
  ini: [["comment", /[#;][^\n]*/y], ["key", /(?<=^|\n)[^=\n]+(?==)/y], NUMBER],
};

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

const ALIASES: Record<string, string> = { h: "c", ts: "js", text: "", md: "" };

/** Splits `text` into coloured runs; unknown languages come back as one plain run. */
export function highlight(text: string, language: string): Token[] {
  const rules = RULES[ALIASES[language] ?? language];
  if (!rules) return [{ kind: "plain", text }];
  const out: Token[] = [];
  let plain = "";
  let i = 0;
  const flush = () => {
    if (plain) out.push({ kind: "plain", text: plain });
    plain = "";
  };
  outer: while (i < text.length) {
    for (const [kind, re] of rules) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (m && m[0].length > 0) {
        flush();
        out.push({ kind, text: m[0] });
        i += m[0].length;
        continue outer;
      }
    }
    // inside a word, take the whole word so keywords and numbers only match at word starts
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    const take = word ? word[0].length : 1;
    plain += text.slice(i, i + take);
    i += take;
  }
  flush();
  return out;
}
