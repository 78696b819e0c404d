#!/usr/bin/env tsx
// The satpayload CLI: the codec core for scripts and CI (sizes, encode/decode, cost, catalogs).
import { DecodeError, EncodeError, LayoutError, RecordError } from "#codecs";
import { BudgetError, PlatformError } from "#planning";
import { batchCommand, batchHelp } from "./commands/batch.ts";
import { budgetCommand, budgetHelp } from "./commands/budget.ts";
import { formatsCommand, platformsCommand, presetsCommand } from "./commands/catalog.ts";
import { channelCommand, channelHelp } from "./commands/channel.ts";
import { decodeCommand, decodeHelp, encodeCommand, encodeHelp } from "./commands/codec.ts";
import { InputError, UsageError } from "./commands/common.ts";
import { costCommand, costHelp } from "./commands/cost.ts";
import { devkitCommand, devkitHelp } from "./commands/devkit.ts";
import { diffCommand, diffHelp } from "./commands/diff.ts";
import { exportCommand, exportHelp } from "./commands/export.ts";
import { loadtestCommand, loadtestHelp } from "./commands/loadtest.ts";
import { sizesCommand, sizesHelp } from "./commands/sizes.ts";
import { stackCommand, stackHelp } from "./commands/stack.ts";

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<void>; help: string }> = {
  sizes: { run: sizesCommand, help: sizesHelp },
  encode: { run: encodeCommand, help: encodeHelp },
  decode: { run: decodeCommand, help: decodeHelp },
  cost: { run: costCommand, help: costHelp },
  presets: { run: presetsCommand, help: "satpayload presets [--json]\n  Lists the built-in layouts (--preset ID).\n" },
  formats: {
    run: formatsCommand,
    help: "satpayload formats [--json]\n  Lists the wire formats and how each one's bytes are produced.\n",
  },
  platforms: {
    run: platformsCommand,
    help: "satpayload platforms [--json]\n  Lists the platform catalog: limits, billing and sources.\n",
  },
  devkit: { run: devkitCommand, help: devkitHelp },
  diff: { run: diffCommand, help: diffHelp },
  export: { run: exportCommand, help: exportHelp },
  loadtest: { run: loadtestCommand, help: loadtestHelp },
  stack: { run: stackCommand, help: stackHelp },
  channel: { run: channelCommand, help: channelHelp },
  // later issues add commands at the end (bin/satpayload.test.ts reads the order)
  batch: { run: batchCommand, help: batchHelp },
  budget: { run: budgetCommand, help: budgetHelp },
};

const USAGE = `usage: satpayload <command> [flags]   (satpayload help <command> for details)

${Object.values(COMMANDS)
  .map((c) => c.help)
  .join("\n")}
exit codes: 0 ok, 1 bad input data (layout, record, bytes, file), 2 bad usage (flags, names)
`;

/** Known failures print one line on stderr; anything else is a bug and keeps its stack. */
function exitCodeFor(e: unknown): number {
  if (e instanceof UsageError) {
    process.stderr.write(`satpayload: ${e.message}\n(run "satpayload help" for usage)\n`);
    return 2;
  }
  if (
    e instanceof InputError ||
    e instanceof LayoutError ||
    e instanceof RecordError ||
    e instanceof DecodeError ||
    e instanceof EncodeError ||
    e instanceof PlatformError ||
    e instanceof BudgetError
  ) {
    const kind =
      e instanceof LayoutError
        ? "invalid layout: "
        : e instanceof PlatformError
          ? "invalid platform: "
          : e instanceof RecordError
            ? "invalid record: "
            : "";
    process.stderr.write(`satpayload: ${kind}${e.message}\n`);
    return 1;
  }
  process.stderr.write(`satpayload: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const topic = rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    process.stdout.write(topic ? topic.help : USAGE);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    process.stderr.write(`satpayload: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(", ")})\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(cmd.help);
    return 0;
  }
  try {
    await cmd.run(rest);
    return 0;
  } catch (e) {
    return exitCodeFor(e);
  }
}

// a closed pipe (`satpayload sizes | head`) is the reader's choice, not an error
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
