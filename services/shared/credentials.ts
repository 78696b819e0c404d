// The stack's credentials file (<stack dir>/decoder/keys.json; a Kubernetes Secret or a compose mount in
// deployments): device and fleet keys that may write, reader keys that may read, and the shared
// secrets webhooks are signed with. Keys are kept only as SHA-256 hashes — they are 256-bit random
// values, so a fast hash is as strong as a slow one — and are shown once, when created. Webhook
// secrets must stay readable to recompute the HMAC, so the file is written owner-only (0600).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { writeFileAtomic } from "./atomicWrite.ts";

export type KeyRole = "device" | "fleet" | "reader";

const keySchema = z.strictObject({
  id: z.string().regex(/^[a-f0-9]{12}$/),
  role: z.enum(["device", "fleet", "reader"]),
  /** the one device a device key may write for */
  device: z.string().min(1).max(128).optional(),
  label: z.string().max(200).default(""),
  hash: z.string().regex(/^[a-f0-9]{64}$/),
  created: z.string(),
  revoked: z.string().nullable().default(null),
});
const webhookSchema = z.strictObject({
  id: z.string().regex(/^[a-f0-9]{12}$/),
  /** the route whose requests it signs, e.g. /astrocast-callback */
  route: z.string().startsWith("/"),
  label: z.string().max(200).default(""),
  secret: z.string().min(32),
  created: z.string(),
  revoked: z.string().nullable().default(null),
});
const fileSchema = z.strictObject({
  version: z.literal(1),
  keys: z.array(keySchema).default([]),
  webhooks: z.array(webhookSchema).default([]),
});

export type StoredKey = z.infer<typeof keySchema>;
export type StoredWebhook = z.infer<typeof webhookSchema>;
export type KeysFile = z.infer<typeof fileSchema>;

export class KeysFileError extends Error {
  override readonly name = "KeysFileError";
}

/** what a presented key may do */
export type Principal = { role: KeyRole; id: string; device?: string | undefined };

const TOKEN = /^spk_([a-f0-9]{12})_([A-Za-z0-9_-]{43})$/;
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

function emptyKeys(): KeysFile {
  return { version: 1, keys: [], webhooks: [] };
}

export function readKeysFile(file: string): KeysFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return emptyKeys();
    throw new KeysFileError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new KeysFileError(`${file} is not JSON`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new KeysFileError(`${file}: ${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  return parsed.data;
}

export function writeKeysFile(file: string, keys: KeysFile): void {
  writeFileAtomic(file, `${JSON.stringify(keys, null, 2)}\n`, 0o600);
}

const newId = () => randomBytes(6).toString("hex");

/** Adds a key and returns the token, which exists nowhere else afterwards. */
export function addKey(
  file: string,
  o: { role: KeyRole; device?: string | undefined; label?: string | undefined },
  now = new Date(),
): { id: string; token: string } {
  if (o.role === "device" && !o.device)
    throw new KeysFileError("a device key needs the device it may write for (--device ID)");
  if (o.role !== "device" && o.device) throw new KeysFileError(`a ${o.role} key is not bound to a device`);
  const keys = readKeysFile(file);
  const id = newId();
  const token = `spk_${id}_${randomBytes(32).toString("base64url")}`;
  keys.keys.push({
    id,
    role: o.role,
    device: o.device,
    label: o.label ?? "",
    hash: sha256(token).toString("hex"),
    created: now.toISOString(),
    revoked: null,
  });
  writeKeysFile(file, keys);
  return { id, token };
}

/** Adds a webhook secret for a route and returns it (the portal is configured with it). */
export function addWebhook(
  file: string,
  o: { route: string; label?: string | undefined },
  now = new Date(),
): { id: string; secret: string } {
  if (!o.route.startsWith("/"))
    throw new KeysFileError(`the webhook route must be a path such as /astrocast-callback, not "${o.route}"`);
  const keys = readKeysFile(file);
  const id = newId();
  const secret = randomBytes(32).toString("base64url");
  keys.webhooks.push({ id, route: o.route, label: o.label ?? "", secret, created: now.toISOString(), revoked: null });
  writeKeysFile(file, keys);
  return { id, secret };
}

/** Revokes a key or webhook secret by id; false when there is no active one. */
export function revoke(file: string, id: string, now = new Date()): boolean {
  const keys = readKeysFile(file);
  const hit = [...keys.keys, ...keys.webhooks].find((k) => k.id === id && k.revoked === null);
  if (!hit) return false;
  hit.revoked = now.toISOString();
  writeKeysFile(file, keys);
  return true;
}

/** The listing people see: never a hash or a secret. */
export function listKeys(file: string) {
  const keys = readKeysFile(file);
  return [
    ...keys.keys.map((k) => ({
      id: k.id,
      role: k.role as KeyRole | "webhook",
      device: k.device ?? null,
      route: null as string | null,
      label: k.label,
      created: k.created,
      revoked: k.revoked,
    })),
    ...keys.webhooks.map((w) => ({
      id: w.id,
      role: "webhook" as const,
      device: null,
      route: w.route,
      label: w.label,
      created: w.created,
      revoked: w.revoked,
    })),
  ];
}

/** Checks presented tokens against a loaded file; compares hashes in constant time. */
export class KeyRing {
  private readonly byId: Map<string, StoredKey>;
  private readonly hooks: Map<string, StoredWebhook[]>;

  constructor(keys: KeysFile) {
    this.byId = new Map(keys.keys.filter((k) => k.revoked === null).map((k) => [k.id, k]));
    this.hooks = new Map();
    for (const w of keys.webhooks)
      if (w.revoked === null) this.hooks.set(w.route, [...(this.hooks.get(w.route) ?? []), w]);
  }

  /** undefined: no such active key (wrong, revoked or malformed token) */
  principal(token: string): Principal | undefined {
    const m = TOKEN.exec(token);
    const stored = m ? this.byId.get(m[1]!) : undefined;
    // hash and compare even for unknown ids, so the answer takes as long either way
    const expected = stored ? Buffer.from(stored.hash, "hex") : Buffer.alloc(32);
    const ok = timingSafeEqual(sha256(token), expected) && stored !== undefined;
    return ok ? { role: stored.role, id: stored.id, device: stored.device } : undefined;
  }

  /** any active device or fleet key: from then on, writes need one (in --auth auto) */
  hasWriters(): boolean {
    for (const k of this.byId.values()) if (k.role !== "reader") return true;
    return false;
  }

  webhookSecrets(route: string): readonly StoredWebhook[] {
    return this.hooks.get(route) ?? [];
  }
}

/** Re-reads the file when it changes (keys added or revoked while the stack runs), at most once a second. */
export class KeysWatcher {
  private ring: KeyRing;
  private mtime = -1;
  private checkedAt = 0;

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {
    // a broken file at start-up is the operator's to fix: refuse to start on it
    this.ring = new KeyRing(readKeysFile(file));
    this.mtime = this.mtimeOf();
    this.checkedAt = now();
  }

  current(): KeyRing {
    const t = this.now();
    if (t - this.checkedAt >= 1000) this.reload();
    return this.ring;
  }

  private mtimeOf(): number {
    try {
      return statSync(this.file).mtimeMs;
    } catch {
      return 0;
    }
  }

  private reload(): void {
    this.checkedAt = this.now();
    const mtime = this.mtimeOf();
    if (mtime === this.mtime) return;
    try {
      this.ring = new KeyRing(readKeysFile(this.file));
      this.mtime = mtime;
    } catch (e) {
      // a file broken while running (a hand edit) keeps the last good keys until it is fixed
      if (!(e instanceof KeysFileError)) throw e;
    }
  }
}
