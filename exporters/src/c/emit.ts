// A line buffer with indentation and the locals a generated function turned out to need: C89-style
// declarations at the top keep -Wall -Wextra quiet about unused variables.

export class CBody {
  private readonly lines: string[] = [];
  private depth = 1;
  private readonly locals = new Map<string, string>();

  line(text: string): this {
    this.lines.push(text === "" ? "" : `${"  ".repeat(this.depth)}${text}`);
    return this;
  }

  open(text: string): this {
    this.line(text);
    this.depth++;
    return this;
  }

  close(text = "}"): this {
    this.depth--;
    return this.line(text);
  }

  /** Ends a block and starts the next at the same depth ("} else {"). */
  reopen(text: string): this {
    this.depth--;
    this.line(text);
    this.depth++;
    return this;
  }

  /** Declares a local once (name → declaration) and returns its name. */
  local(name: string, decl: string): string {
    if (!this.locals.has(name)) this.locals.set(name, decl);
    return name;
  }

  /** The function: signature, the locals used, the body. */
  fn(signature: string): string[] {
    return [`${signature} {`, ...[...this.locals.values()].map((d) => `  ${d}`), ...this.lines, "}"];
  }
}

/** The loop variable of arrays nested `depth` deep (groups cannot hold arrays of groups, so one level suffices). */
export const LOOP = "i";

/**
 * A C header's lines: include guard, `preamble` (includes, macros) outside and `declarations`
 * inside an extern "C" block, so every generated header can be included from C++ (Arduino).
 */
export function cHeader(guard: string, preamble: string[], declarations: string[]): string[] {
  return [
    `#ifndef ${guard}`,
    `#define ${guard}`,
    "",
    ...preamble,
    "#ifdef __cplusplus",
    'extern "C" {',
    "#endif",
    "",
    ...declarations,
    "",
    "#ifdef __cplusplus",
    "}",
    "#endif",
    "",
    `#endif /* ${guard} */`,
    "",
  ];
}
