// A self-signed certificate for a bundle's first run (localhost and 127.0.0.1), made with the
// openssl command line: enough to start nginx with TLS and to test it, never meant for devices in
// the field — the bundle's README says to replace it with the deployment's real certificate.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";

export const CERT_FILE = "tls.crt";
export const KEY_FILE = "tls.key";

export type SelfSigned = { ok: true } | { ok: false; reason: string; command: string };

export function selfSignedCommand(dir: string, days = 90): string[] {
  return [
    "openssl",
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    path.join(dir, KEY_FILE),
    "-out",
    path.join(dir, CERT_FILE),
    "-days",
    String(days),
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ];
}

export function writeSelfSigned(dir: string): SelfSigned {
  mkdirSync(dir, { recursive: true });
  const [cmd, ...args] = selfSignedCommand(dir);
  const run = spawnSync(cmd!, args, { encoding: "utf8" });
  const shown = selfSignedCommand(".").join(" ");
  if (run.error) return { ok: false, reason: `openssl could not run (${run.error.message})`, command: shown };
  if (run.status !== 0)
    return { ok: false, reason: `openssl failed: ${run.stderr.trim().split("\n").pop()}`, command: shown };
  chmodSync(path.join(dir, KEY_FILE), 0o600);
  return { ok: true };
}
