// Who may do what without access control policies: a resource's owner, the creator/superuser rule of the
// profile (Mobius: anyone may read; the standard's default, ACME: only the owner and the superuser), and
// the instances a container's disableRetrieval (disr) hides from reads, deletes and listings.
import { noPrivilege, notAllowed } from "./errors.ts";
import type { Profile } from "./profile.ts";
import { TY, type ResourceRow, type SearchScope, type Store } from "./resourceTree.ts";

export class AccessRules {
  /** containers whose instances cannot be retrieved (disr true): their ids, read once at start */
  private retrievalDisabled = new Set<number>();

  constructor(
    private readonly store: Store,
    private readonly config: { superuser: string; profile: Profile },
  ) {}

  /** Reads which containers have disr set (at start, and when a deletion may have taken some). */
  reloadRetrievalDisabled(): void {
    this.retrievalDisabled = new Set(this.store.retrievalDisabledContainers());
  }

  /** A container created or updated with disr true (or false). */
  setRetrievalDisabled(containerId: number, disabled: boolean): void {
    if (disabled) this.retrievalDisabled.add(containerId);
    else this.retrievalDisabled.delete(containerId);
  }

  isRetrievalDisabled(containerId: number): boolean {
    return this.retrievalDisabled.has(containerId);
  }

  get anyRetrievalDisabled(): boolean {
    return this.retrievalDisabled.size > 0;
  }

  /**
   * Who a resource belongs to: its creator (an AE: its AE-ID). Where access is private by default an
   * instance belongs to its container's owner, as it has no access control of its own (TS-0001, ACME).
   */
  ownerOf(row: ResourceRow): string | null {
    if (row.ty === TY.CIN && this.config.profile.privateByDefault && row.parent !== null)
      return this.store.byId(row.parent)?.cr ?? row.cr;
    return row.cr;
  }

  mayModify(row: ResourceRow, originator: string): void {
    if (originator !== this.ownerOf(row) && originator !== this.config.superuser)
      throw noPrivilege(`originator ${originator} may not change /${row.path}: only its creator or the superuser may`);
  }

  /**
   * Whether `originator` may read `row` or add children to it. Mobius without ACPs: anyone may. The
   * standard's default without ACPs (ACME): the owner and the superuser; the CSEBase may be read by
   * registered AEs, and below it only the superuser adds anything but an AE registration.
   */
  mayReach(row: ResourceRow, originator: string, operation: "retrieve" | "create"): void {
    if (!this.config.profile.privateByDefault || originator === this.config.superuser) return;
    if (row.ty === TY.CSE_BASE) {
      if (operation === "retrieve" && this.store.byAei(originator)) return;
      throw noPrivilege(
        operation === "retrieve"
          ? `originator ${originator} may not read the CSEBase: only registered AEs and the superuser may`
          : `originator ${originator} may not create this below the CSEBase: only the superuser may (AEs register themselves)`,
      );
    }
    if (this.ownerOf(row) !== originator)
      throw noPrivilege(
        `originator ${originator} has no access to /${row.path}: without access control policies only its owner and the superuser have`,
      );
  }

  /** What a listing shows `originator`: not the instances of disr containers, and only its own where access is private. */
  scope(originator: string): SearchScope {
    const all = !this.config.profile.privateByDefault || originator === this.config.superuser;
    return { hiddenInstancesOf: [...this.retrievalDisabled], ownedBy: all ? undefined : originator };
  }

  /** disableRetrieval (TS-0001): the instances of such a container cannot be read or deleted one by one. */
  checkRetrievable(instance: ResourceRow, what: string): void {
    if (instance.ty === TY.CIN && instance.parent !== null && this.retrievalDisabled.has(instance.parent))
      throw notAllowed(`${what}: the container has disableRetrieval (disr) set`);
  }
}
