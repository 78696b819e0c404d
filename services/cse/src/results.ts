// The result contents (TS-0004 rcn) a response can carry besides the resource itself: the subtree
// nested under the target (rcn 4 and 8) and lists of references (rcn 5 and 6).
import type { Rsc } from "./errors.ts";
import { TY, type ResourceRow } from "./resourceTree.ts";

type Attrs = Record<string, unknown>;

/** TS-0004's resultContent values this CSE answers with. */
export const RCN = {
  NOTHING: 0,
  ATTRIBUTES: 1,
  ADDRESS: 2,
  ADDRESS_AND_ATTRIBUTES: 3,
  ATTRIBUTES_AND_CHILDREN: 4,
  ATTRIBUTES_AND_CHILD_REFERENCES: 5,
  CHILD_REFERENCES: 6,
  CHILDREN: 8,
  MODIFIED_ATTRIBUTES: 9,
  DISCOVERY_REFERENCES: 11,
} as const;

/** What an operation answers: status, response status code, content and, for a create, where it is. */
export interface CseResponse {
  status: number;
  rsc: Rsc;
  body?: unknown;
  /** Content-Location of a created resource */
  location?: string;
}

/** A resource in a result: its row, its representation and the JSON root that names its type. */
export interface Listed {
  row: ResourceRow;
  attrs: Attrs;
  root: string;
}

const parentPath = (p: string): string => p.slice(0, p.lastIndexOf("/"));

/**
 * Puts each listed resource under its nearest listed ancestor (the target when none of its ancestors
 * is listed), grouped by JSON root in the order given: `{…target, "m2m:cnt": [{…, "m2m:cin": [...]}]}`.
 * A filter that skips a level (only the instances below an AE) lists them under the target.
 */
export function nest(targetPath: string, target: Attrs, listed: readonly Listed[]): Attrs {
  const holders = new Map<string, Attrs>([[targetPath, target]]);
  for (const item of listed) {
    // every listed path is below the target's, so the walk up ends at the target at the latest
    let holder: Attrs | undefined;
    for (let p = parentPath(item.row.path); !holder; p = parentPath(p)) holder = holders.get(p);
    ((holder[item.root] ??= []) as Attrs[]).push(item.attrs);
    holders.set(item.row.path, item.attrs);
  }
  return target;
}

/** TS-0004's childResourceRef: name, type and address (and a mgmtObj's specialization as spty). */
export function references(listed: readonly Listed[]): Attrs[] {
  return listed.map(({ row, attrs }) => ({
    nm: attrs.rn,
    typ: row.ty,
    val: row.path,
    ...(row.ty === TY.MGMT_OBJ ? { spty: attrs.mgd } : {}),
  }));
}
