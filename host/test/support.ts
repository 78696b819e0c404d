// Shared by the host tests: throwaway directories and a host bound to one.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect } from "vitest";
import { methods, type HostErrorBody, type MethodName, type Res } from "../api/contract.ts";
import { toErrorBody } from "../errors.ts";
import { createHost, type Host, type HostOptions } from "../host.ts";

const dirs: string[] = [];
const hosts: Host[] = [];

afterEach(() => {
  for (const h of hosts.splice(0)) h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), "satpayload-host-"));
  dirs.push(d);
  return d;
}

export function testHost(opts: Partial<HostOptions> = {}): Host {
  const h = createHost({ dataDir: opts.dataDir ?? tempDir(), shell: "browser", version: "9.9.9", ...opts });
  hosts.push(h);
  return h;
}

/** Calls through the dispatcher and checks the answer against the contract's response schema. */
export async function call<M extends MethodName>(host: Host, method: M, req: unknown): Promise<Res<M>> {
  const out = await host.dispatch(method, req);
  const checked = methods[method].res.safeParse(out);
  expect(checked.success, `response of ${method} matches the contract`).toBe(true);
  return out as Res<M>;
}

/** The HostErrorBody a failing call produces (what both transports would send). */
export async function failure(p: Promise<unknown>): Promise<HostErrorBody> {
  try {
    await p;
  } catch (e) {
    return toErrorBody(e, () => {});
  }
  throw new Error("expected the call to fail");
}
