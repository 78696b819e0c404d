// The two behaviours the embedded CSE can have. `mobius` reproduces what a real Mobius 2.4/2.5 was
// measured doing (docs/onem2m-http.md, "Measured behaviour of a real Mobius"), so tests of the
// forwarder and the dashboard prove them right against the CSE the paper ran; `standard` answers
// as TS-0001/TS-0004 say and as ACME was measured answering (docs/cse.md, conformance table).
export const PROFILE_NAMES = ["mobius", "standard"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface Profile {
  name: ProfileName;
  /**
   * `la`/`ol`: Mobius takes the alphabetically largest/smallest resource name among the instances
   * of the most recent time window (1, 5, 25 … minutes) that has any; the standard takes the
   * newest/oldest by creation.
   */
  latestByName: boolean;
  /** AE attributes the create must carry besides `api` (Mobius: rr; ACME: rr and srv) */
  aeMandatory: readonly string[];
  /** Mobius stores `rr:"false"`/`"true"` as booleans; the standard wants a JSON boolean */
  rrFromString: boolean;
  /** the same originator registering a second AE (Mobius 409/4106, standard 403/4117) */
  originatorRegistered: { status: number; rsc: 4106 | 4117 };
  /** a create under `…/la` or `…/ol` (Mobius 409/4005, ACME 405/4005) */
  createUnderVirtualStatus: number;
  /** Mobius gives back a `con` string that holds a JSON object or array as that object, and a number or boolean `con` as its text */
  mobiusContent: boolean;
  /**
   * discovery: Mobius takes the alphabetically smallest `lim` paths, at most 2000, and lists them by
   * path descending; the standard lists in creation order without a cap. `rcn`: the result contents
   * a discovery may ask for besides the default list of paths (Mobius refuses 11; ACME takes 6 and 11)
   */
  discovery: { byName: boolean; cap: number | undefined; rcn: readonly number[] };
  /**
   * the levels below the target a retrieve with rcn 4, 5, 6 or 8 reaches by default: 1 (the direct
   * children, deeper is refused) or undefined (every level, TS-0004: the whole subtree, `lvl` limits it)
   */
  childLevels: 1 | undefined;
  /** the attributes Mobius does not know (cin dgt, dcnt) and TS-0004's stricter forms (cnf "type/subtype:encoding") */
  standardAttributes: boolean;
  /** `cr` only when the create asked for it with `cr: null` (TS-0001, ACME); Mobius always writes it */
  creatorOnRequest: boolean;
  /** an AE's api starts with N or R (a lower-case r too before release 4), as TS-0001 and ACME want; Mobius takes any */
  apiPrefix: boolean;
  /** an AE create without an originator (or an empty one) gets a C… AE-ID assigned (TS-0001, ACME); Mobius wants one */
  anonymousAeRegistration: boolean;
  /** nct 2 (modified attributes) only with net [1] (TS-0004, ACME); Mobius takes it with any net */
  modifiedAttributesOnUpdateOnly: boolean;
  /** a notification's `sur`: the subscription's structured path (Mobius) or its SP-relative resource id `/<CSE-ID>/<ri>` (ACME) */
  subscriptionReference: "path" | "ri";
  /**
   * access without ACPs: TS-0001's system default (ACME) lets only a resource's owner and the
   * superuser reach it (an instance belongs to its container's owner; registered AEs may read the
   * CSEBase; discovery lists only what the originator owns); Mobius lets anyone read, add and subscribe
   */
  privateByDefault: boolean;
  /** ct and lt with the fraction of the second "…T143712,827000" (ACME) or without (Mobius) */
  fractionalTimes: boolean;
  /** `enc.net` of a subscription created without one (Mobius [3], TS-0004 and ACME [1]) */
  defaultNet: readonly number[];
  /**
   * the longest `rn` the CSE can store: Mobius keeps it in `lookup.rn varchar(45)` and answers a
   * longer one 500/5000 "[create_action] create resource error" (measured, issue 22); the standard sets none
   */
  maxNameLength: number | undefined;
  /**
   * a discovery with one `lbl` value finds no contentInstance: Mobius stores labels as JSON indented
   * by 4 and matches one value with `LIKE '["%<value>%"]'`, which that text never matches (an instance
   * is never updated, so its labels stay indented); two values or more, even the same one twice,
   * take its other form and match. Measured on a real Mobius 2026-11-27 (docs/stack.md, A real Mobius).
   */
  singleLabelMissesInstances: boolean;
}

export const PROFILES: Record<ProfileName, Profile> = {
  mobius: {
    name: "mobius",
    latestByName: true,
    aeMandatory: ["rr"],
    rrFromString: true,
    originatorRegistered: { status: 409, rsc: 4106 },
    createUnderVirtualStatus: 409,
    mobiusContent: true,
    discovery: { byName: true, cap: 2000, rcn: [] },
    defaultNet: [3],
    childLevels: 1,
    standardAttributes: false,
    creatorOnRequest: false,
    apiPrefix: false,
    anonymousAeRegistration: false,
    modifiedAttributesOnUpdateOnly: false,
    subscriptionReference: "path",
    fractionalTimes: false,
    privateByDefault: false,
    maxNameLength: 45,
    singleLabelMissesInstances: true,
  },
  standard: {
    name: "standard",
    latestByName: false,
    aeMandatory: ["rr", "srv"],
    rrFromString: false,
    originatorRegistered: { status: 403, rsc: 4117 },
    createUnderVirtualStatus: 405,
    mobiusContent: false,
    discovery: { byName: false, cap: undefined, rcn: [6, 11] },
    defaultNet: [1],
    childLevels: undefined,
    standardAttributes: true,
    creatorOnRequest: true,
    apiPrefix: true,
    anonymousAeRegistration: true,
    modifiedAttributesOnUpdateOnly: true,
    subscriptionReference: "ri",
    fractionalTimes: true,
    privateByDefault: true,
    maxNameLength: undefined,
    singleLabelMissesInstances: false,
  },
};

export const DEFAULT_PROFILE: ProfileName = "mobius";

export function isProfileName(s: string): s is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(s);
}
