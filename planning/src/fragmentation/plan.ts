// What sending a record that does not fit costs on each platform: messages per record, header overhead,
// queue occupancy and uplink caps, and the cost compared with a platform that took the record whole.
import { FragmentError, FRAGMENT_HEADER_BYTES, MAX_FRAGMENTS } from "./header.ts";
import {
  chargeMessage,
  estimateCost,
  fragmentRoom,
  roundDecimal,
  type CostResult,
  type SizeDistribution,
} from "../cost/cost.ts";
import type { Billing, Platform } from "../platforms/catalog.ts";
import type { OverheadFn } from "../transport/platformStack.ts";

export type FragmentMode = "no-limit" | "single" | "fragmented" | "too-large";

export interface FragmentShare {
  fragments: number;
  share: number;
}

export interface QueuePlan {
  slots: number;
  /** whole records the queue holds when every record takes the most fragments seen */
  recordsPerQueue: number;
  latencyHours: { min: number; max: number };
  /** mean slots in use per device (Little's law: arrivals per hour × hours in the queue) */
  occupancy: { min: number; max: number };
  /** the mean occupancy reaches the queue size: the module answers BUFFER_FULL */
  overflows: boolean;
  /** a record needs more slots than the queue has, so it cannot be queued at once */
  recordExceedsQueue: boolean;
}

export interface FragmentationPlan {
  platformId: string;
  platformName: string;
  limit: number | null;
  mode: FragmentMode;
  /** who splits the record: the studio's 2-byte header, or the stack's own SCHC fragmentation (RFC 8724 §8) */
  scheme: string;
  /** how the receiver puts a record back together, in plain words */
  reassembly: string;
  /** fragment header bytes in fragmented mode (studio: 2 on every message; SCHC: per fragment), else 0 */
  headerBytes: number;
  /** record bytes per message in fragmented mode (what the limit leaves after the fragment and transport headers) */
  payloadPerMessage: number | null;
  /** the largest record the header can describe on this platform */
  maxRecordBytes: number | null;
  /** messages per record */
  fragments: { mean: number; p95: number; max: number; shares: FragmentShare[] };
  /** mean bytes on air per record, headers included */
  sentBytesPerRecord: number;
  /** mean fragment-header bytes per record (SCHC: headers, RCS and padding) and their share of what is sent */
  overhead: { bytesPerRecord: number; share: number };
  /**
   * mean downlink bytes per record the receiver answers with: SCHC ACK-on-Error's ACK after every fragmented
   * record; 0 otherwise. Not in the cost: the catalog's prices are for uplink data.
   */
  ackBytesPerRecord: number;
  /** mean bytes the transport stack adds per record (its headers on every fragment); 0 for a raw modem payload */
  transportBytesPerRecord: number;
  /** uplink messages per device and day, at the mean and at the largest record */
  transmissionsPerDay: { mean: number; max: number };
  uplinkCap: { perDay: number; ok: boolean } | null;
  queue: QueuePlan | null;
  cost: {
    fragmented: CostResult;
    /** the same traffic on a platform without a per-message limit */
    whole: CostResult;
    /** fragmented − whole for the period (exact mean), undefined without a price */
    extra: number | undefined;
  };
  notes: string[];
}

export interface FragmentationInput {
  platform: Platform;
  sizes: SizeDistribution;
  devices: number;
  messagesPerDay: number;
  days?: number;
  billing?: Billing;
  /** the transport stack's bytes per message (planning/src/transport/platformStack.ts); none for a raw modem payload */
  transportOverhead?: OverheadFn;
}

export const REASSEMBLY_RULE =
  "Every message of a fragmented layout starts with a 2-byte header: record id (0–255, +1 per record), then fragment index (high nibble) and last index = count − 1 (low nibble). The receiver keeps one buffer per device and record id, ignores duplicate indexes, restarts the buffer when the count disagrees (the id wrapped), and delivers the record when all indexes 0…count−1 are in, concatenated in index order; unfinished records are dropped after a timeout or once 128 newer records have started.";

function fragmentShares(
  b: Billing,
  sizes: ArrayLike<number>,
  limit: number,
  overhead: OverheadFn | undefined,
): FragmentShare[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < sizes.length; i++) {
    const f = chargeMessage(sizes[i]!, b, limit, FRAGMENT_HEADER_BYTES, true, overhead).fragments;
    counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, c) => a[0] - c[0])
    .map(([fragments, n]) => ({ fragments, share: n / sizes.length }));
}

/** How estimateCost must bill a layout on a platform: in fragmented mode when its largest record, on air, exceeds the limit. */
export function fragmentationMode(
  platform: Platform,
  sizes: SizeDistribution,
  overhead?: OverheadFn,
): { fragmentHeaderBytes?: number; headerOnEveryMessage?: boolean } {
  const maxOnAir = sizes.max + (overhead ? overhead(sizes.max) : 0);
  // a stack with its own fragmentation (SCHC) needs no studio header: estimateCost takes it from the overhead
  return platform.uplinkBytes !== undefined && maxOnAir > platform.uplinkBytes && !overhead?.fragmenter
    ? { fragmentHeaderBytes: FRAGMENT_HEADER_BYTES, headerOnEveryMessage: true }
    : {};
}

/** Record bytes per fragment; a limit the headers fill leaves nothing to send, which is the user's platform or stack to change. */
function roomPerFragment(platform: Platform, limit: number, overhead: OverheadFn | undefined): number {
  const own = overhead?.fragmenter;
  const room = own ? own.room(limit) : fragmentRoom(limit, FRAGMENT_HEADER_BYTES, overhead);
  if (own && room < 1)
    throw new FragmentError(
      `${platform.name}'s ${limit}-byte messages leave no room for a tile after the ${own.headerBytes}-byte ${own.name} fragment header`,
    );
  if (room < 1)
    throw new FragmentError(
      `${platform.name}'s ${limit}-byte messages leave no room for a record after the ${FRAGMENT_HEADER_BYTES}-byte fragment header${overhead ? " and the transport's headers" : ""}`,
    );
  return room;
}

function withoutLimit(p: Platform): Platform {
  const { uplinkBytes: _limit, ...rest } = p;
  return rest as Platform;
}

export function planFragmentation(input: FragmentationInput): FragmentationPlan {
  const { platform, sizes, devices, messagesPerDay } = input;
  const days = input.days ?? 30;
  const b = input.billing ?? platform.billing;
  const limit = platform.uplinkBytes;
  const overhead = input.transportOverhead;
  const base = {
    platform,
    devices,
    messagesPerDay,
    days,
    sizes,
    ...(input.billing ? { billing: input.billing } : {}),
    ...(overhead ? { transportOverhead: overhead } : {}),
  };
  const whole = estimateCost({ ...base, platform: withoutLimit(platform) });
  const notes: string[] = [];

  const mode0 = fragmentationMode(platform, sizes, overhead);
  const own = overhead?.fragmenter;
  const fragmentedMode =
    mode0.headerOnEveryMessage === true ||
    (own !== undefined && limit !== undefined && sizes.max + overhead!(sizes.max) > limit);
  const fragmented = estimateCost({ ...base, ...mode0 });
  // one record through the same model gives the per-record figures, whatever the fleet size
  const one = estimateCost({ ...base, ...mode0, devices: 1, messagesPerDay: 1, days: 1 });
  const exactOf = (r: CostResult) => r.exact ?? r.mean;
  const perRecord = exactOf(one).sentBytes;

  let mode: FragmentMode = limit === undefined ? "no-limit" : fragmentedMode ? "fragmented" : "single";
  let payloadPerMessage: number | null = null;
  let maxRecord: number | null = null;
  let shares: FragmentShare[] = [{ fragments: 1, share: 1 }];
  if (limit !== undefined) {
    payloadPerMessage = roomPerFragment(platform, limit, overhead);
    // SCHC bounds the packet (ACK-on-Error's windows × tiles), not the fragment count; No-ACK has no bound
    maxRecord = own
      ? own.maxOnAir === undefined
        ? null
        : fragmentRoom(own.maxOnAir, 0, overhead)
      : MAX_FRAGMENTS * payloadPerMessage;
    if (fragmentedMode) {
      shares =
        sizes.sizes && sizes.sizes.length
          ? fragmentShares(b, sizes.sizes, limit, overhead)
          : [{ fragments: fragmented.max.fragmentsPerMessage, share: 1 }];
      if (maxRecord !== null && sizes.max > maxRecord) {
        mode = "too-large";
        notes.push(
          own
            ? `records up to ${sizes.max} B exceed the ${own.maxOnAir} B a ${own.name} packet can carry (4 windows of 63 tiles): ${maxRecord} B of record at most`
            : `records up to ${sizes.max} B need more than the header's ${MAX_FRAGMENTS} fragments (${maxRecord} B at most on ${platform.name})`,
        );
      }
    }
  }
  const meanFragments = exactOf(one).fragmentsPerMessage;
  const maxFragments = fragmented.max.fragmentsPerMessage;
  // SCHC fragments the compressed packet once: its fragmentation bytes are what is sent beyond the whole packet
  const wholePerRecord = own
    ? exactOf(estimateCost({ ...base, platform: withoutLimit(platform), devices: 1, messagesPerDay: 1, days: 1 }))
        .sentBytes
    : 0;
  const headerPerRecord = !fragmentedMode
    ? 0
    : own
      ? Math.max(0, roundDecimal(perRecord - wholePerRecord, 9))
      : meanFragments * FRAGMENT_HEADER_BYTES;
  // what is sent beyond the record and its fragment headers is the transport's
  // (rounded: the exact mean and the size statistics' mean sum the same sizes in different orders)
  const transportPerRecord = overhead ? Math.max(0, roundDecimal(perRecord - sizes.mean - headerPerRecord, 9)) : 0;
  const ackPerRecord =
    fragmentedMode && own && own.ackBytes > 0
      ? own.ackBytes * (one.exact ? one.exact.shareOverLimit : one.mean.fragmentsPerMessage > 1 ? 1 : 0)
      : 0;
  if (ackPerRecord > 0)
    notes.push(
      `the receiver answers each fragmented record with a ${own!.ackBytes}-byte SCHC ACK on the downlink (${roundDecimal(ackPerRecord, 2)} B per record on average); the cost counts uplink bytes only`,
    );

  const transmissionsPerDay = { mean: messagesPerDay * meanFragments, max: messagesPerDay * maxFragments };
  const uplinkCap =
    platform.maxUplinksPerDay !== undefined
      ? { perDay: platform.maxUplinksPerDay, ok: transmissionsPerDay.max <= platform.maxUplinksPerDay }
      : null;
  if (uplinkCap && !uplinkCap.ok)
    notes.push(
      `${transmissionsPerDay.max} messages/day at the largest record exceed ${platform.name}'s ${uplinkCap.perDay} uplinks/day`,
    );

  let queue: QueuePlan | null = null;
  if (platform.queueSlots !== undefined) {
    const slots = platform.queueSlots;
    const lat = platform.uplinkLatencyHours ?? { min: 0, max: 0 };
    const occupancy = {
      min: (transmissionsPerDay.mean * lat.min) / 24,
      max: (transmissionsPerDay.mean * lat.max) / 24,
    };
    queue = {
      slots,
      recordsPerQueue: Math.floor(slots / maxFragments),
      latencyHours: lat,
      occupancy,
      overflows: occupancy.max >= slots,
      recordExceedsQueue: maxFragments > slots,
    };
    if (queue.overflows)
      notes.push(
        `about ${occupancy.max.toFixed(1)} of ${slots} queue slots are busy on average: the module will refuse payloads (BUFFER_FULL)`,
      );
    if (queue.recordExceedsQueue)
      notes.push(
        `a ${maxFragments}-fragment record needs more than the ${slots} queue slots; the host must feed it in as slots free up`,
      );
    if (fragmentedMode && platform.uplinkLatencyHours)
      notes.push(
        `a record is complete only when its last fragment arrives: at least the ${lat.min}–${lat.max} h message latency, longer when its fragments leave in different contacts`,
      );
  }

  const fc = exactOf(fragmented).cost;
  const wc = exactOf(whole).cost;
  return {
    platformId: platform.id,
    platformName: platform.name,
    limit: limit ?? null,
    mode,
    scheme: own ? own.name : "studio reassembly header",
    reassembly: own ? own.reassembly : REASSEMBLY_RULE,
    headerBytes: fragmentedMode ? (own ? own.headerBytes : FRAGMENT_HEADER_BYTES) : 0,
    payloadPerMessage,
    maxRecordBytes: maxRecord,
    fragments: { mean: meanFragments, p95: fragmented.p95.fragmentsPerMessage, max: maxFragments, shares },
    sentBytesPerRecord: perRecord,
    overhead: { bytesPerRecord: headerPerRecord, share: perRecord > 0 ? headerPerRecord / perRecord : 0 },
    ackBytesPerRecord: ackPerRecord,
    transportBytesPerRecord: transportPerRecord,
    transmissionsPerDay,
    uplinkCap,
    queue,
    cost: { fragmented, whole, extra: fc !== undefined && wc !== undefined ? fc - wc : undefined },
    notes,
  };
}
