// The oneM2M HTTP binding: reads a request, hands it to the CSE, and answers with X-M2M-RSC on
// every response, the request's X-M2M-RI and X-M2M-RVI echoed, an m2m:dbg body on refusals, and
// CORS always on as Mobius has it (browser dashboards read the CSE directly).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Cse, CseResponse } from "./cse.ts";
import { CseError, RSC } from "./errors.ts";
import { DEFAULT_RVI, parseRequest, RELEASE_VERSIONS } from "./request.ts";

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-M2M-RSC, X-M2M-RI, X-M2M-RVI, Content-Location",
};
const PREFLIGHT = {
  "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Accept, Content-Type, X-M2M-RI, X-M2M-Origin, X-M2M-RVI, X-M2M-RSC, Locale",
  "Access-Control-Max-Age": "86400",
};

export interface HttpOptions {
  maxBodyBytes: number;
  log: (event: Record<string, unknown>) => void;
  /** false once the CSE is closing: late requests get 500/5000 instead of touching a closed store */
  isOpen: () => boolean;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined ? undefined : s.trim();
}

export function createHandler(cse: Cse, opts: HttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const ri = header(req, "x-m2m-ri");
    const sentRvi = header(req, "x-m2m-rvi");
    const rvi = sentRvi && sentRvi !== "" ? sentRvi : DEFAULT_RVI;
    const answer = (out: CseResponse) => send(res, out, ri, RELEASE_VERSIONS.has(rvi) ? rvi : DEFAULT_RVI);
    const fail = (e: unknown) => {
      if (e instanceof CseError) return answer({ status: e.status, rsc: e.rsc, body: { "m2m:dbg": e.message } });
      opts.log({
        event: "error",
        method: req.method,
        url: req.url,
        error: e instanceof Error ? (e.stack ?? e.message) : String(e),
      });
      answer({
        status: 500,
        rsc: RSC.INTERNAL_SERVER_ERROR,
        body: { "m2m:dbg": "internal error of the CSE (see its log)" },
      });
    };

    if (req.method === "OPTIONS") {
      res.writeHead(200, { ...CORS, ...PREFLIGHT, "X-M2M-RSC": String(RSC.OK), "Content-Length": "0" });
      res.end();
      return;
    }
    const declared = Number(header(req, "content-length") ?? "0");
    if (declared > opts.maxBodyBytes) {
      // no point reading a body that will be refused: answer and drop the connection
      res.shouldKeepAlive = false;
      answer({
        status: 413,
        rsc: RSC.BAD_REQUEST,
        body: { "m2m:dbg": `the body is ${declared} bytes, more than the ${opts.maxBodyBytes} this CSE takes` },
      });
      res.on("finish", () => req.destroy());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= opts.maxBodyBytes) chunks.push(c);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (size > opts.maxBodyBytes)
        return answer({
          status: 413,
          rsc: RSC.BAD_REQUEST,
          body: { "m2m:dbg": `the body is larger than the ${opts.maxBodyBytes} bytes this CSE takes` },
        });
      if (!opts.isOpen())
        return answer({ status: 500, rsc: RSC.INTERNAL_SERVER_ERROR, body: { "m2m:dbg": "the CSE is shutting down" } });
      let parsed;
      try {
        parsed = parseRequest({
          method: req.method ?? "",
          url: req.url ?? "/",
          header: (n) => header(req, n),
          body: Buffer.concat(chunks, Math.min(size, opts.maxBodyBytes)),
        });
      } catch (e) {
        return fail(e);
      }
      cse.handle(parsed).then(answer, fail);
    });
  };
}

function send(res: ServerResponse, out: CseResponse, ri: string | undefined, rvi: string): void {
  if (res.headersSent || res.destroyed) return;
  const text = out.body === undefined ? "" : JSON.stringify(out.body);
  const headers: Record<string, string> = {
    ...CORS,
    "X-M2M-RSC": String(out.rsc),
    "X-M2M-RVI": rvi,
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
  };
  if (ri) headers["X-M2M-RI"] = ri;
  if (out.location) headers["Content-Location"] = encodeURI(out.location);
  res.writeHead(out.status, headers);
  res.end(text);
}
