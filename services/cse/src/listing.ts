// What a retrieve with children (rcn 4/5/6/8) and discovery (fu=1) list below a resource: the filter's
// selection within the profile's levels and caps, as the originator may see it, and the resource at a
// relative path (arp) below each.
import type { AccessRules } from "./access.ts";
import { badRequest, RSC } from "./errors.ts";
import type { Profile } from "./profile.ts";
import type { Representation } from "./representation.ts";
import type { CseRequest } from "./request.ts";
import type { Filter, ResourceRow, Store } from "./resourceTree.ts";
import { RCN, references, type CseResponse } from "./results.ts";
import type { Target } from "./target.ts";

export class Listing {
  constructor(
    private readonly store: Store,
    private readonly profile: Profile,
    private readonly access: AccessRules,
    private readonly view: Representation,
  ) {}

  /**
   * The resources below `row` a retrieve with rcn 4/5/6/8 lists: those the filter selects, within
   * the profile's levels, without the instances of containers that disable retrieval, each replaced
   * by the resource at `arp` below it when the filter names one.
   */
  below(row: ResourceRow, filter: Filter, originator: string): ResourceRow[] {
    const levels = this.profile.childLevels;
    if (levels !== undefined && filter.lvl !== undefined && filter.lvl > levels)
      throw badRequest(`lvl=${filter.lvl}: this CSE lists the direct children only (lvl=1)`);
    const rows = this.store.search(
      row.path,
      { ...filter, lvl: filter.lvl ?? levels },
      false,
      this.access.scope(originator),
    );
    return filter.arp === undefined ? rows : this.applyRelativePath(rows, filter.arp, originator);
  }

  private applyRelativePath(rows: readonly ResourceRow[], arp: string, originator: string): ResourceRow[] {
    const owner = this.access.scope(originator).ownedBy;
    return rows.flatMap((r) => {
      const at = this.store.byPath(`${r.path}/${arp}`);
      return at && (owner === undefined || this.access.ownerOf(at) === owner) ? [at] : [];
    });
  }

  /** Discovery (fu=1): the paths of the resources below the target the filter selects, or references (rcn 6). */
  discover(req: CseRequest, target: Target): CseResponse {
    const { rcn, filter } = req.query;
    const discovery = this.profile.discovery;
    if (target.virtual) throw badRequest(`discovery needs a real resource, not /${req.path}`);
    // Mobius refuses any rcn, ACME takes 11 (the list of paths, the default) and 6 (references)
    if (rcn !== undefined && !discovery.rcn.includes(rcn))
      throw badRequest(
        `rcn=${rcn} is not supported with discovery (leave rcn out${discovery.rcn.length ? ` or use ${discovery.rcn.join(" or ")}` : ""})`,
      );
    const lim = discovery.cap === undefined ? filter.lim : Math.min(filter.lim ?? discovery.cap, discovery.cap);
    const scope = {
      ...this.access.scope(req.originator),
      labelMissesInstances: this.profile.singleLabelMissesInstances && filter.lblOneValue === true,
    };
    if (rcn === RCN.CHILD_REFERENCES) {
      const rows = this.store.search(target.row.path, { ...filter, lim }, discovery.byName, scope);
      const found = filter.arp === undefined ? rows : this.applyRelativePath(rows, filter.arp, req.originator);
      return {
        status: 200,
        rsc: RSC.OK,
        body: { "m2m:rrl": { rrf: references(found.map((r) => this.view.listed(r))) } },
      };
    }
    let paths: string[];
    if (filter.arp === undefined)
      paths = this.store.searchPaths(target.row.path, { ...filter, lim }, discovery.byName, scope);
    else {
      const rows = this.store.search(target.row.path, { ...filter, lim }, discovery.byName, scope);
      paths = this.applyRelativePath(rows, filter.arp, req.originator).map((r) => r.path);
    }
    // Mobius picks the smallest names, then lists them from the largest down
    if (discovery.byName) paths.reverse();
    return { status: 200, rsc: RSC.OK, body: { "m2m:uril": paths } };
  }
}
