// --embedded-cse: the embedded CSE runs inside the decoder's process, its resource tree in the
// decoder's own buffer file, so a record and its contentInstance are written by one transaction
// (one fsync: acknowledged = stored = in the CSE). External readers and subscribers reach it over
// HTTP on its own port exactly as when it runs alone; the decoder itself skips that hop.
import type Database from "better-sqlite3";
import { CseError, RSC } from "../../cse/src/errors.ts";
import type { ProfileName } from "../../cse/src/profile.ts";
import { parseRequest } from "../../cse/src/request.ts";
import { startCse, type RunningCse } from "../../cse/src/server.ts";
import type { Delivery, StoredRecord } from "../buffer/buffer.ts";
import type { CseTarget } from "../config.ts";
import { containerFor } from "../forward/containers.ts";
import {
  aeAlreadyRegistered,
  aeRequestBody,
  containerRequestBody,
  createdOrExists,
  INSTANCE_CNF,
  reason,
  TY,
  type M2mResponse,
} from "../forward/onem2m.ts";

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
  ) {
    super(message);
  }
}

type Delivered = Pick<StoredRecord, "messageId" | "rn" | "device" | "con">;

export class InProcessCse implements Delivery {
  private aeReady = false;
  private readonly containers = new Set<string>();
  private readonly basePath: string;
  private ri = 0;
  /** notifications of instances created in the open transaction: raised once it has committed */
  private raises: (() => void)[] = [];

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
  private request(path: string, body: string, ty: number) {
    const headers: Record<string, string> = {
      "x-m2m-ri": `inproc-${++this.ri}`,
      "x-m2m-origin": this.target.origin,
      "x-m2m-rvi": this.target.rvi,
      "content-type": `application/json;ty=${ty}`,
    };
    return parseRequest({
      method: "POST",
      url: `${this.basePath}${path ? `/${path}` : ""}`,
      header: (n) => headers[n],
      body: Buffer.from(body),
    });
  }

  private async create(path: string, body: string, ty: number): Promise<M2mResponse> {
    try {
      const r = await this.running.core.handle(this.request(path, body, ty));
      return { status: r.status, rsc: r.rsc, body: JSON.stringify(r.body ?? null) };
    } catch (e) {
      if (!(e instanceof CseError)) throw e;
      return { status: e.status, rsc: e.rsc, body: JSON.stringify({ "m2m:dbg": e.message }) };
    }
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
  deliver(record: Delivered): void {
    const container = containerFor(this.target, record.device);
    try {
      const created = this.running.core.createInstanceInOpenTransaction({
        path: `${this.target.ae}/${container}`,
        originator: this.target.origin,
        rn: record.rn ?? record.messageId,
        cnf: INSTANCE_CNF,
        con: record.con,
      });
      this.raises.push(created.raise);
    } catch (e) {
      if (!(e instanceof CseError)) throw e;
      // the name is taken: this record's instance is there already (delivered before its mark was)
      if (e.rsc === RSC.CONFLICT) return;
      // gone containers are created again before the next batch
      if (e.rsc === RSC.NOT_FOUND) {
        this.containers.delete(container);
        this.aeReady = false;
      }
      throw new RecordRefused(
        `the CSE refused ${record.messageId} for ${this.target.ae}/${container}: ${e.message}`,
        e,
      );
    }
  }

  refused(e: unknown): e is Error {
    return e instanceof RecordRefused;
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
