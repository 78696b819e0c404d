// `satpayload stack keys add|list|revoke`: the credentials of the stack's decoder — device, fleet and
// reader keys and webhook secrets — in <data dir>/stack/decoder/keys.json (or --keys FILE, e.g. the
// file a deployment bundle mounts). A key is printed once, when it is made; only its hash is kept.
import path from "node:path";
import { defaultDataDir } from "#host/paths.ts";
import { decoderDataDir, STACK_DIR } from "#host/stack/dirs.ts";
import { addKey, addWebhook, KeysFileError, listKeys, revoke, type KeyRole } from "#services/shared/credentials.ts";
import { InputError, parseFlags, table, UsageError, write } from "./common.ts";

export const stackKeysHelp = `satpayload stack keys add (--device ID | --fleet | --reader | --webhook ROUTE) [--label TEXT] [--json]
satpayload stack keys list [--json]      satpayload stack keys revoke ID
  Device keys write records of one device only; fleet keys write any device's; reader keys read
  /api/* and the event stream; a webhook secret signs a portal's callbacks to ROUTE (HMAC-SHA256 of
  the body in X-Satpayload-Signature: sha256=<hex>). Enforced by a decoder started with --auth on.
    --data-dir DIR   the app's data directory (default: SATPAYLOAD_DATA_DIR or the app's)
    --keys FILE      another credentials file, e.g. a bundle's secrets/keys.json
`;

function keysFile(f: { keys?: string | undefined; "data-dir"?: string | undefined }): string {
  if (f.keys !== undefined) return path.resolve(f.keys);
  const dataDir = f["data-dir"] !== undefined ? path.resolve(f["data-dir"]) : defaultDataDir();
  return path.join(decoderDataDir(path.join(dataDir, STACK_DIR)), "keys.json");
}

const common = {
  keys: { type: "string" },
  "data-dir": { type: "string" },
  json: { type: "boolean", default: false },
} as const;

function add(argv: string[]): void {
  const f = parseFlags(argv, {
    ...common,
    device: { type: "string" },
    fleet: { type: "boolean", default: false },
    reader: { type: "boolean", default: false },
    webhook: { type: "string" },
    label: { type: "string" },
  });
  const kinds = [f.device !== undefined, f.fleet, f.reader, f.webhook !== undefined].filter(Boolean).length;
  if (kinds !== 1)
    throw new UsageError("stack keys add needs exactly one of --device ID, --fleet, --reader, --webhook ROUTE");
  const file = keysFile(f);
  if (f.webhook !== undefined) {
    const { id, secret } = addWebhook(file, { route: f.webhook, label: f.label });
    write(
      f.json
        ? `${JSON.stringify({ schema: "satpayload.stack-key/1", id, role: "webhook", route: f.webhook, secret, file })}\n`
        : `webhook secret ${id} for ${f.webhook} (shown once; configure the portal with it):\n${secret}\n`,
    );
    return;
  }
  const role: KeyRole = f.device !== undefined ? "device" : f.fleet ? "fleet" : "reader";
  const { id, token } = addKey(file, { role, device: f.device, label: f.label });
  write(
    f.json
      ? `${JSON.stringify({ schema: "satpayload.stack-key/1", id, role, device: f.device ?? null, key: token, file })}\n`
      : `${role} key ${id}${f.device ? ` for device ${f.device}` : ""} (shown once; send it as Authorization: Bearer <key>):\n${token}\n`,
  );
}

function list(argv: string[]): void {
  const f = parseFlags(argv, common);
  const keys = listKeys(keysFile(f));
  if (f.json) return write(`${JSON.stringify({ schema: "satpayload.stack-keys/1", keys })}\n`);
  if (!keys.length) return write(`no keys in ${keysFile(f)} (add one: satpayload stack keys add --device ID)\n`);
  write(
    table(
      ["id", "role", "device / route", "label", "created", "revoked"],
      keys.map((k) => [k.id, k.role, k.device ?? k.route ?? "", k.label, k.created, k.revoked ?? ""]),
      6,
    ),
  );
}

function revokeKey(argv: string[]): void {
  const [id, ...flags] = argv;
  if (!id || id.startsWith("--"))
    throw new UsageError("stack keys revoke needs the key's id first (satpayload stack keys list)");
  const f = parseFlags(flags, common);
  if (!revoke(keysFile(f), id)) throw new InputError(`no active key ${id} in ${keysFile(f)}`);
  write(f.json ? `${JSON.stringify({ schema: "satpayload.stack-key-revoked/1", id })}\n` : `revoked ${id}\n`);
}

export function stackKeysCommand(argv: string[]): void {
  const [sub, ...rest] = argv;
  try {
    if (sub === "add") return add(rest);
    if (sub === "list") return list(rest);
    if (sub === "revoke") return revokeKey(rest);
  } catch (e) {
    if (e instanceof KeysFileError) throw new InputError(e.message);
    throw e;
  }
  throw new UsageError(`stack keys needs add, list or revoke${sub ? ` (not "${sub}")` : ""}`);
}
