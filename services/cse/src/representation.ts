// How a resource row is shown: its attributes with the container counters and the CSEBase's own, times in
// the profile's form, wrapped under the root that names its type (m2m:cnt, …).
import { rootOf } from "./attributes.ts";
import type { Profile } from "./profile.ts";
import { TY, type ResourceRow } from "./resourceTree.ts";
import type { Listed } from "./results.ts";
import { m2mTime, m2mTimeFraction } from "./time.ts";

export type Attrs = Record<string, unknown>;

export class Representation {
  constructor(private readonly config: { cseId: string; profile: Profile; pointOfAccess: () => string }) {}

  /** ct and lt in the profile's form */
  time(ms: number): string {
    return this.config.profile.fractionalTimes ? m2mTimeFraction(ms) : m2mTime(ms);
  }

  represent(row: ResourceRow): Attrs {
    const a = JSON.parse(row.attrs) as Attrs;
    if (row.ty === TY.CNT) {
      a.cni = row.cni;
      a.cbs = row.cbs;
      a.st = row.st;
    } else if (row.ty === TY.CSE_BASE) {
      a.csi = this.config.cseId;
      a.cst = 1;
      a.srt = [TY.AE, TY.CNT, TY.CIN, TY.CSE_BASE, TY.MGMT_OBJ, TY.NODE, TY.SUB];
      a.srv = ["2a", "3"];
      a.poa = [this.config.pointOfAccess()];
    }
    return a;
  }

  wrap(row: ResourceRow, attrs: Attrs = this.represent(row)): Attrs {
    return { [rootOf(row.ty, attrs)]: attrs };
  }

  listed(row: ResourceRow): Listed {
    const attrs = this.represent(row);
    return { row, attrs, root: rootOf(row.ty, attrs) };
  }
}

/** rcn=9: the resource's attributes the request did not set (what the CSE set or changed itself). */
export function modifiedOnly(body: Attrs, given: Attrs): Attrs {
  const [root, attrs] = Object.entries(body)[0]!;
  return { [root]: Object.fromEntries(Object.entries(attrs as Attrs).filter(([k]) => !(k in given))) };
}
