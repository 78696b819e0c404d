// --embedded-cse: the embedded CSE runs inside the decoder's process, its resource tree in the
// decoder's own buffer file, so a record and its contentInstance are written by one transaction
// (one fsync: acknowledged = stored = in the CSE). External readers and subscribers reach it over
// HTTP on its own port exactly as when it runs alone; the decoder itself skips that hop.
import type Database from "better-sqlite3";
import { CseError, RSC } from "../../../cse/src/errors.ts";
import type { ProfileName } from "../../../cse/src/profile.ts";
import { parseRequest } from "../../../cse/src/request.ts";
import { startCse, type RunningCse } from "../../../cse/src/server.ts";
import type { DeliveredRecord, Delivery, Refusal } from "../buffer/buffer.ts";
import type { CseTarget } from "../config.ts";
import { containerFor } from "../forward/containers.ts";
import {
  aeAlreadyRegistered,
  aeRequestBody,
  classifyInstance,
  containerRequestBody,
  createdOrExists,
  INSTANCE_CNF,
  reason,
  refusalOf,
  TY,
  type M2mResponse,
} from "../forward/onem2m.ts";
import { instanceLabels, MAX_RESOURCE_NAME } from "../names.ts";

export interface EmbeddedCseConfig {
  host: string;
  port: number;
  profile: ProfileName | undefined;
  verifySubscriptions: boolean;
}

/** the CSE refused one record (its container is gone, it is too large for mbs, …): not stored, the sender retries */
export class RecordRefused extends Error {
  constructor(
    message: string,
    override readonly cause: CseError,
    /** where it was sent: kept with a left-over record refused for good */
    readonly container: string,
    readonly rn: string,
  ) {
    super(message);
  }
}

/** why a left-over record waits: its name is taken (read it back), too long (look for it, rename), or its container is gone */
export type LaterReason = "taken" | "old-name" | "missing";

/** a left-over record that cannot go in inside this transaction (see LaterReason) */
class Later extends Error {}

/** the answer an HTTP POST would have given for a CSE error */
const answerOf = (e: CseError): M2mResponse => ({
  status: e.status,
  rsc: e.rsc,
  body: JSON.stringify({ "m2m:dbg": e.message }),
});

export class InProcessCse implements Delivery {
  private aeReady = false;
  private readonly containers = new Set<string>();
  private readonly basePath: string;
  private ri = 0;
  /** notifications of instances created in the open transaction: raised once it has committed */
  private raises: (() => void)[] = [];
  /**
   * set while records a forwarding run left are delivered (deliverLeftovers): why each record that
   * has to wait waits, and the containers it holds up — what follows it in its container waits too
   */
  private pass: { why: Map<number, LaterReason>; held: Set<string> } | undefined;

  private constructor(
    readonly running: RunningCse,
    readonly target: CseTarget,
  ) {
    this.basePath = new URL(target.url).pathname;
  }

  /** Starts the CSE on `connection` (the decoder's buffer) and its HTTP port for everyone else. */
  static async start(
    connection: Database.Database,
    cfg: EmbeddedCseConfig,
    target: CseTarget,
    log: (m: string) => void,
  ): Promise<InProcessCse> {
    const running = await startCse({
      connection,
      host: cfg.host,
      port: cfg.port,
      profile: cfg.profile,
      verifySubscriptions: cfg.verifySubscriptions,
      log: (e) => log(`cse: ${JSON.stringify(e)}`),
    });
    return new InProcessCse(running, { ...target, url: running.cseBaseUrl });
  }

  /** The same request the forwarder would send over HTTP, parsed by the CSE's own HTTP binding. */
  private request(method: "GET" | "POST", path: string, body?: string, ty?: number) {
    const headers: Record<string, string> = {
      "x-m2m-ri": `inproc-${++this.ri}`,
      "x-m2m-origin": this.target.origin,
      "x-m2m-rvi": this.target.rvi,
    };
    if (ty !== undefined) headers["content-type"] = `application/json;ty=${ty}`;
    return parseRequest({
      method,
      url: `${this.basePath}${path ? `/${path}` : ""}`,
      header: (n) => headers[n],
      body: Buffer.from(body ?? ""),
    });
  }

  private async call(method: "GET" | "POST", path: string, body?: string, ty?: number): Promise<M2mResponse> {
    try {
      const r = await this.running.core.handle(this.request(method, path, body, ty));
      return { status: r.status, rsc: r.rsc, body: JSON.stringify(r.body ?? null) };
    } catch (e) {
      if (!(e instanceof CseError)) throw e;
      return answerOf(e);
    }
  }

  private create(path: string, body: string, ty: number): Promise<M2mResponse> {
    return this.call("POST", path, body, ty);
  }

  /** GET of a record's instance (the read-back of a taken name), outside any open transaction */
  retrieveInstance(device: string, rn: string): Promise<M2mResponse> {
    return this.call("GET", `${this.target.ae}/${containerFor(this.target, device)}/${rn}`);
  }

  /** The AE and the containers these devices' records go to exist (each created once, in its own transaction). */
  async prepare(devices: Iterable<string>): Promise<void> {
    if (!this.aeReady) {
      const r = await this.create("", aeRequestBody(this.target), TY.ae);
      if (!createdOrExists(r) && !aeAlreadyRegistered(r))
        throw new Error(`creating AE ${this.target.ae}: ${reason(r)}`);
      this.aeReady = true;
    }
    for (const device of devices) {
      const name = containerFor(this.target, device);
      if (this.containers.has(name)) continue;
      const r = await this.create(this.target.ae, containerRequestBody(this.target, name), TY.container);
      if (!createdOrExists(r)) {
        // the AE may be gone (deleted by a reader with the rights to): recreate it next time
        this.aeReady = false;
        throw new Error(`creating container ${this.target.ae}/${name}: ${reason(r)}`);
      }
      this.containers.add(name);
    }
  }

  /** Delivery: the record's contentInstance, inside the buffer's open transaction. */
  deliver(record: DeliveredRecord): void {
    const container = containerFor(this.target, record.device);
    const rn = record.rn ?? record.messageId;
    const pass = this.pass;
    if (pass) {
      if (pass.held.has(container)) throw new Later();
      // a name from before issue 22 that Mobius cannot store: looked for, then renamed, outside the transaction
      if (rn.length > MAX_RESOURCE_NAME) this.wait(pass, record.seq, container, "old-name");
    }
    try {
      const created = this.running.core.createInstanceInOpenTransaction({
        path: `${this.target.ae}/${container}`,
        originator: this.target.origin,
        rn,
        cnf: INSTANCE_CNF,
        con: record.con,
        lbl: instanceLabels(record.messageId, rn),
      });
      this.raises.push(created.raise);
    } catch (e) {
      if (!(e instanceof CseError)) throw e;
      // gone containers are created again before the next batch
      if (e.rsc === RSC.NOT_FOUND) {
        this.containers.delete(container);
        this.aeReady = false;
      }
      // the name is taken: delivered before its mark was, or not ours — read back after the transaction
      if (pass && e.rsc === RSC.CONFLICT) this.wait(pass, record.seq, container, "taken");
      if (pass && e.rsc === RSC.NOT_FOUND) this.wait(pass, record.seq, container, "missing");
      // a new record's name is a fresh ULID: taken means someone else's instance, so its sender retries
      throw new RecordRefused(
        `the CSE refused ${record.messageId} for ${this.target.ae}/${container}: ${e.message}`,
        e,
        container,
        rn,
      );
    }
  }

  private wait(pass: NonNullable<InProcessCse["pass"]>, seq: number, container: string, why: LaterReason): never {
    pass.why.set(seq, why);
    pass.held.add(container);
    throw new Later();
  }

  /** a batch message refused in part is undone whole: its readings' notifications go with it */
  savepoint(): () => void {
    const n = this.raises.length;
    return () => {
      this.raises.length = n;
    };
  }

  refused(e: unknown): e is Error {
    return e instanceof RecordRefused;
  }

  leftover(e: unknown): Refusal | "later" | undefined {
    if (e instanceof Later) return "later";
    if (!(e instanceof RecordRefused)) return undefined;
    const answer = answerOf(e.cause);
    return classifyInstance(answer) === "refused" ? refusalOf(answer, e.container, e.rn) : undefined;
  }

  /**
   * Runs `fn` (deliverPending) as a pass over left-over records: returns why each record that has
   * to wait waits (by seq).
   */
  leftoverPass<T>(fn: () => T): { result: T; why: Map<number, LaterReason> } {
    const pass = { why: new Map<number, LaterReason>(), held: new Set<string>() };
    this.pass = pass;
    try {
      return { result: fn(), why: pass.why };
    } finally {
      this.pass = undefined;
    }
  }

  /** After the transaction: its notifications go out (committed) or are dropped (rolled back). */
  settle(committed: boolean): void {
    const raises = this.raises;
    this.raises = [];
    if (committed) for (const r of raises) r();
  }

  close(): Promise<void> {
    return this.running.close();
  }
}
