// A contentInstance on its way into a container: its row and representation (with Mobius' content rules
// when the profile has them, and its size as cs), then written below the container inside the caller's
// transaction — refused when the container cannot hold it, older instances trimmed, counters moved on.
import { conflict, notAcceptable } from "./errors.ts";
import type { Profile } from "./profile.ts";
import type { Attrs } from "./representation.ts";
import type { NewRow, ResourceRow, Store } from "./resourceTree.ts";
import type { Retention } from "./retention.ts";

/** A contentInstance before it is written: `row.size` is its cs; `rep.st` is set by write */
export interface NewInstance {
  row: NewRow;
  rep: Attrs;
  labels: unknown;
  /** JSON.stringify(rep) before `con`, without its closing brace */
  head: string;
  /** JSON.stringify(rep.con) */
  conJson: string;
}

export class InstanceWriter {
  constructor(
    private readonly store: Store,
    private readonly profile: Profile,
    private readonly retention: Retention,
    /** 409 when a resource has that path */
    private readonly checkFree: (path: string) => void,
  ) {}

  /** The instance of checked `attrs` from the row and representation every new resource starts with. */
  build({ rep, row }: { rep: Attrs; row: NewRow }, attrs: Attrs): NewInstance {
    const con = attrs.con;
    if (attrs.cnf !== undefined) rep.cnf = attrs.cnf;
    if (attrs.dgt !== undefined) rep.dgt = attrs.dgt;
    if (attrs.dcnt !== undefined) rep.dcnt = attrs.dcnt;
    const stored = this.profile.mobiusContent ? mobiusContent(con) : con;
    const storedJson = JSON.stringify(stored);
    const cs = Buffer.byteLength(typeof con === "string" ? con : stored === con ? storedJson : JSON.stringify(con));
    const head = JSON.stringify(rep).slice(0, -1);
    rep.con = stored;
    rep.cs = cs;
    return {
      row: { ...row, size: cs },
      rep,
      labels: attrs.lbl,
      head,
      conJson: storedJson,
    };
  }

  /**
   * Adds the instance below `cnt` (read in the running transaction) and trims the container to its
   * limits. Runs inside the caller's transaction.
   */
  write(cnt: ResourceRow, { row, rep, labels, head, conJson }: NewInstance): ResourceRow {
    const cs = row.size;
    const limits = this.retention.limitsOf(cnt);
    if (limits.mni === 0 || cs > limits.mbs) {
      // a taken name is refused before the limits, as it always was
      this.checkFree(row.path);
      if (limits.mni === 0) throw notAcceptable(`/${cnt.path} takes no instances (mni=0)`);
      throw notAcceptable(`the instance is ${cs} bytes, more than /${cnt.path} holds (mbs=${limits.mbs})`);
    }
    const st = cnt.st + 1;
    rep.st = st;
    // JSON.stringify(rep), without writing the content's JSON twice
    const full = { ...row, st, attrs: `${head},"con":${conJson},"cs":${cs},"st":${st}}` };
    // the unique path is the name check: a taken name writes nothing (trimming comes after)
    const id = this.store.insertIfFree(full);
    if (id === undefined) throw conflict(`a resource /${row.path} already exists`);
    if (Array.isArray(labels)) this.store.replaceLabels(id, labels as string[]);
    const { cni, cbs } = this.retention.trim(cnt, limits, row.created_ms, 1, cs, id);
    this.store.setCounters(cnt.id, cni + 1, cbs + cs, st);
    return { id, ...full };
  }
}

/** Mobius parses a `con` string holding a JSON object or array, and turns numbers and booleans into text. */
function mobiusContent(con: unknown): unknown {
  if (typeof con === "number" || typeof con === "boolean") return String(con);
  if (typeof con !== "string" || !/^\s*[[{]/.test(con)) return con;
  try {
    return JSON.parse(con) as unknown;
  } catch {
    return con;
  }
}
