// `satpayload encode` / `decode`: one record through one format, for piping into devices, portals and other tools.
import { codecFor, type CompiledCodec, EncodeError, generateSamples, type Layout, toPlain } from "#codecs";
import {
  InputError,
  intFlag,
  LAYOUT_FLAGS,
  loadLayout,
  parseFlags,
  parseFormat,
  readStdin,
  UsageError,
  write,
} from "./common.ts";
import { hexToBytes } from "./hex.ts";
import { stringifyJson } from "./jsonio.ts";
import { DEFAULT_SEED, readJsonlLines, recordFromJson } from "./records.ts";

export const encodeHelp = `satpayload encode --layout FILE | --preset ID --format NAME [--hex] [--seed S --sample I]
  Reads one JSON record from stdin (or takes generated sample I of seed S) and writes its bytes:
  raw binary, or lower-case hex and a newline with --hex.
satpayload encode --layout FILE | --preset ID --format NAME --records FILE.jsonl --hex
  Encodes every record of the file (one JSON object a line) and writes one hex message a line, in
  order. A record that cannot be encoded stops it before anything is written, naming its line.
`;

export const decodeHelp = `satpayload decode --layout FILE | --preset ID --format NAME [--hex]
  Reads one message from stdin (raw bytes, or hex text with --hex) and prints the record as one
  line of JSON in the layout's text representation (what the device would emit).
`;

export async function encodeCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    format: { type: "string" },
    hex: { type: "boolean", default: false },
    seed: { type: "string" },
    sample: { type: "string" },
    records: { type: "string" },
  });
  if (flags.records !== undefined) {
    if (!flags.hex)
      throw new UsageError(
        "--records writes one message a line: add --hex (raw messages back to back could not be told apart)",
      );
    if (flags.sample !== undefined || flags.seed !== undefined)
      throw new UsageError("--records reads a file: it cannot be combined with --sample or --seed");
  }
  const { layout } = loadLayout(flags);
  const codec = codecFor(layout, parseFormat(flags.format));
  if (flags.records !== undefined) return encodeFile(layout, codec, flags.records);
  let record;
  if (flags.sample !== undefined || flags.seed !== undefined) {
    const index = intFlag(flags.sample, "--sample", 0, 0, 999_999);
    const seed = intFlag(flags.seed, "--seed", DEFAULT_SEED, 0, 0xffffffff);
    record = generateSamples(layout, index + 1, seed)[index]!;
  } else {
    const text = (await readStdin()).toString("utf8").trim();
    if (text === "") throw new UsageError("no record on stdin: pipe one JSON object in, or use --sample/--seed");
    record = recordFromJson(layout, text, "stdin");
  }
  const bytes = codec.encode(record);
  if (flags.hex) write(`${Buffer.from(bytes).toString("hex")}\n`);
  else process.stdout.write(bytes);
}

/** All or nothing: the lines only go out once every record has encoded, so line n is always record n. */
function encodeFile(layout: Layout, codec: CompiledCodec, file: string): void {
  const { records, lines } = readJsonlLines(layout, file);
  const hex = records.map((record, i) => {
    try {
      return Buffer.from(codec.encode(record)).toString("hex");
    } catch (e) {
      if (e instanceof EncodeError) throw new InputError(`${file}:${lines[i]}: ${e.message}`);
      throw e;
    }
  });
  write(`${hex.join("\n")}\n`);
}

export async function decodeCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    format: { type: "string" },
    hex: { type: "boolean", default: false },
  });
  const { layout } = loadLayout(flags);
  const codec = codecFor(layout, parseFormat(flags.format));
  const input = await readStdin();
  const bytes = flags.hex
    ? hexToBytes(input.toString("utf8"))
    : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const record = codec.decode(bytes);
  write(`${stringifyJson(toPlain(layout, record, "json"))}\n`);
}
