// Who may talk to the browser-mode API: the holder of this session's token, on our own origin.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Compares digests so neither the content nor the length of the token leaks through timing. */
export function tokenChecker(token: string): (given: string | null | undefined) => boolean {
  const expected = createHash("sha256").update(token).digest();
  return (given) => typeof given === "string" && timingSafeEqual(createHash("sha256").update(given).digest(), expected);
}

/**
 * DNS rebinding: a hostile page whose name resolves to 127.0.0.1 still sends its own name in Host
 * and Origin, so only our literal loopback names with our port are accepted.
 */
export function originChecker(port: number): {
  hostOk(host: string | undefined): boolean;
  originOk(origin: string | undefined): boolean;
} {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = new Set([...hosts].map((h) => `http://${h}`));
  return {
    hostOk: (host) => host !== undefined && hosts.has(host.toLowerCase()),
    originOk: (origin) => origin === undefined || origins.has(origin.toLowerCase()),
  };
}
