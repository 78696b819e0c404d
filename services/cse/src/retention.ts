// A container's limits (mni instances, mbs bytes, mia seconds): the oldest instances are deleted when a new
// one would not fit, when the limits are lowered, and once they are older than mia.
import type { ResourceRow, Store } from "./resourceTree.ts";

export interface Limits {
  mni: number;
  mbs: number;
  mia: number;
}

/** bounds the parsed limits kept: one entry per container written to */
const MAX_CACHED_LIMITS = 10_000;

export class Retention {
  private readonly limits = new Map<number, { attrs: string; limits: Limits }>();

  constructor(private readonly store: Store) {}

  /** The container's limits, parsed once per version of its attributes. */
  limitsOf(cnt: ResourceRow): Limits {
    const known = this.limits.get(cnt.id);
    if (known?.attrs === cnt.attrs) return known.limits;
    const limits = JSON.parse(cnt.attrs) as Limits;
    if (this.limits.size >= MAX_CACHED_LIMITS) this.limits.clear();
    this.limits.set(cnt.id, { attrs: cnt.attrs, limits });
    return limits;
  }

  /**
   * Deletes the oldest instances until `adding` more instances of `addBytes` fit within mni/mbs and
   * none is older than mia seconds. Runs inside the caller's transaction; `added`, an instance this
   * transaction has just written, is never deleted.
   */
  trim(
    cnt: ResourceRow,
    limits: Limits,
    nowMs: number,
    adding: number,
    addBytes: number,
    added?: number,
  ): { cni: number; cbs: number } {
    let cni = cnt.cni;
    let cbs = cnt.cbs;
    const cutoff = nowMs - limits.mia * 1000;
    // the oldest instance is looked up only when some limit can be exceeded
    const full = cni + adding > limits.mni || cbs + addBytes > limits.mbs;
    if (full || this.store.mayHaveInstanceBefore(cutoff))
      while (cni > 0) {
        const oldest = this.store.oldestInstance(cnt.id);
        if (!oldest || oldest.id === added) break;
        if (cni + adding <= limits.mni && cbs + addBytes <= limits.mbs && oldest.created_ms >= cutoff) break;
        this.store.deleteById(oldest.id);
        cni -= 1;
        cbs -= oldest.size;
      }
    return { cni, cbs: Math.max(cbs, 0) };
  }
}
