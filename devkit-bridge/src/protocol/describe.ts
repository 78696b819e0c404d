// One line of plain language per frame for the bench log: the command's name and its decoded fields.
import { bytesToHex } from "#codecs";
import { errorInfo, hex4 } from "./codes.ts";
import { ANSWER_BIT, COMMAND_BY_OPCODE, DUMMY_OPCODE, opcodeName } from "./commands.ts";
import { ERROR_OPCODE, type Frame } from "./frame.ts";

export type Direction = "tx" | "rx";

function show(v: unknown): string {
  if (v instanceof Uint8Array) return v.length ? bytesToHex(v).toUpperCase() : "(none)";
  if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
  if (v && typeof v === "object") {
    return Object.entries(v)
      .map(([k, x]) =>
        x && typeof x === "object" && !(x instanceof Uint8Array) && !Array.isArray(x)
          ? `${k}{${show(x)}}`
          : `${k}=${show(x)}`,
      )
      .join(" ");
  }
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}

export function describeFrame(f: Frame, dir: Direction): string {
  const name = opcodeName(f.opcode);
  if (f.opcode === ERROR_OPCODE) {
    if (f.payload.length !== 2) return `ERROR (malformed: ${f.payload.length} bytes)`;
    const code = f.payload[0]! | (f.payload[1]! << 8);
    const info = errorInfo(code);
    return `ERROR ${info.name} (${hex4(code)})`;
  }
  if (f.opcode === DUMMY_OPCODE) return "DUMMY (wakes the module after a restart)";
  const cmd = COMMAND_BY_OPCODE.get(f.opcode & ~ANSWER_BIT);
  if (!cmd) return `${name}${f.payload.length ? ` ${bytesToHex(f.payload).toUpperCase()}` : ""}`;
  const isAnswer = (f.opcode & ANSWER_BIT) !== 0;
  try {
    const decoded = isAnswer ? cmd.decodeAnswer(f.payload) : cmd.decodeRequest(f.payload);
    const body = show(decoded);
    return body ? `${name} ${body}` : name;
  } catch (e) {
    return `${name} (undecodable ${dir === "tx" ? "request" : "answer"}: ${(e as Error).message})`;
  }
}
