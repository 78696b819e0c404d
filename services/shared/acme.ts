// A real ACME CSE (PyPI `acmecse`) as we run it, for the tests and for `stack up --cse acme`:
// headless, HTTP on loopback, in-memory storage, CSE-ID /id-in with base name cse-in, AE
// self-registration for C*/S* originators. One acme.ini writer and one readiness probe for both.

export const ACME_BASE = "cse-in";
export const ACME_CSE_ID = "/id-in";
export const ACME_ADMIN = "CAdmin";

export interface AcmeIniOptions {
  port: number;
  /** ACME's verification request to new notification URIs (its default: on) */
  verifySubscriptions: boolean;
}

export function acmeIni(o: AcmeIniOptions): string {
  return [
    "[basic.config]",
    "cseType=IN",
    `cseID=${ACME_CSE_ID.slice(1)}`,
    `cseName=${ACME_BASE}`,
    `adminID=${ACME_ADMIN}`,
    "cseHost=127.0.0.1",
    "networkInterface=127.0.0.1",
    `httpPort=${o.port}`,
    "databaseType=memory",
    "[console]",
    "headless=true",
    "[textui]",
    "startWithTUI=false",
    "[cse.registration]",
    "allowedAEOriginators=C*,S*",
    ...(o.verifySubscriptions ? [] : ["[cse]", "enableSubscriptionVerificationRequests=false"]),
    "",
  ].join("\n");
}

/** ACME answers 404 for a moment before its CSEBase exists: ready means 200 on the CSEBase */
export async function acmeAnswers(cseBaseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(cseBaseUrl, {
      headers: { "X-M2M-RI": "ready", "X-M2M-Origin": ACME_ADMIN, "X-M2M-RVI": "3", Accept: "application/json" },
      signal: AbortSignal.timeout(2000),
    });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}
