// The decoder's refused records over its HTTP API, for the app (StackSupervisor) and for
// `satpayload stack status|retry` against a stack started elsewhere: list them, put them back.
import type { RetryRequest } from "#contracts/decoder/retryRequest.ts";
import type { StackRefused } from "../api/stack.ts";
import { HostError } from "../errors.ts";

async function decoderCall<T>(url: string, init?: RequestInit): Promise<T> {
  const r = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) }).catch((e: unknown) => {
    throw new HostError("internal", `the decoder did not answer ${new URL(url).pathname}: ${(e as Error).message}`);
  });
  const text = await r.text();
  if (!r.ok) {
    let reason = text.slice(0, 300);
    try {
      reason = (JSON.parse(text) as { reason?: string }).reason ?? reason;
    } catch {
      // not JSON: the text itself
    }
    throw new HostError(
      r.status === 400 ? "bad_request" : r.status === 403 || r.status === 401 ? "forbidden" : "internal",
      `the decoder answered ${new URL(url).pathname} with HTTP ${r.status}: ${reason}`,
    );
  }
  return JSON.parse(text) as T;
}

export async function listRefused(decoderUrl: string, limit: number, container?: string): Promise<StackRefused[]> {
  const q = new URLSearchParams({ limit: String(limit) });
  if (container !== undefined) q.set("container", container);
  return (await decoderCall<{ refused: StackRefused[] }>(`${decoderUrl}/api/refused?${q}`)).refused;
}

/** refused records back to pending (all, a container's, or one); resolves with how many */
export async function retryRefused(decoderUrl: string, filter: RetryRequest): Promise<number> {
  return (
    await decoderCall<{ retried: number }>(`${decoderUrl}/api/refused/retry`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(filter),
    })
  ).retried;
}
