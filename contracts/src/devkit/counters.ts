// The Astronode S counter answers (PER_RR, MST_RR, LCD_RR, END_RR) as tables of TLV fields: the bridge
// reads and writes the frames with them (devkit-bridge/src/protocol/{tlv,commands}.ts), the Bench page
// labels the values with them.

/** one TLV field of a counter answer: its type byte, the key it is read into, its width and a label */
export interface TlvField<K extends string> {
  type: number;
  key: K;
  width: 1 | 2 | 4;
  label: string;
}

const f4 = <K extends string>(type: number, key: K, label: string): TlvField<K> => ({ type, key, width: 4, label });
const f1 = <K extends string>(type: number, key: K, label: string): TlvField<K> => ({ type, key, width: 1, label });

export const PER_FIELDS = [
  f4(0x01, "satSearchPhases", "satellite search phases"),
  f4(0x02, "satDetectOps", "satellite detect operations"),
  f4(0x03, "signallingDemodPhases", "signalling demodulation phases"),
  f4(0x04, "demodAttempts", "demodulation attempts"),
  f4(0x05, "demodSuccesses", "demodulation successes"),
  f4(0x06, "ackDemodAttempts", "ack demodulation attempts"),
  f4(0x07, "ackDemodSuccesses", "ack demodulation successes"),
  f4(0x08, "queuedMessages", "queued messages"),
  f4(0x09, "dequeuedUnacked", "dequeued, not acknowledged"),
  f4(0x0a, "ackedMessages", "acknowledged messages"),
  f4(0x0b, "sentFragments", "sent fragments"),
  f4(0x0c, "ackedFragments", "acknowledged fragments"),
  f4(0x0d, "cmdDemodAttempts", "command demodulation attempts"),
  f4(0x0e, "cmdDemodSuccesses", "command demodulation successes"),
] as const;
export type PerKey = (typeof PER_FIELDS)[number]["key"];

export const MST_FIELDS = [
  f1(0x41, "queued", "messages in queue"),
  f1(0x42, "ackedInQueue", "acknowledged messages in queue"),
  f1(0x43, "lastResetReason", "last reset reason"),
  f4(0x44, "uptime", "uptime (s)"),
] as const;
export type MstKey = (typeof MST_FIELDS)[number]["key"];
export const RESET_REASONS = ["none", "power-on", "software", "watchdog", "brown-out"] as const;

export const LCD_FIELDS = [
  f4(0x51, "start", "start of last contact"),
  f4(0x52, "end", "end of last contact"),
  f1(0x53, "peakRssi", "peak RSSI"),
  f4(0x54, "peakTime", "time of peak RSSI"),
] as const;
export type LcdKey = (typeof LCD_FIELDS)[number]["key"];

export const END_FIELDS = [
  f1(0x61, "lastMacResult", "last MAC result"),
  f1(0x62, "lastSearchPeakRssi", "last search peak RSSI"),
  f4(0x63, "sinceLastDetection", "time since last detection (s)"),
] as const;
export type EndKey = (typeof END_FIELDS)[number]["key"];
export const MAC_RESULTS = [
  "none",
  "success",
  "satdet_fail",
  "sync_demod_fail",
  "signaling_demod_fail",
  "ack_signaling_fail",
  "no_ack_in_sf",
  "error",
  "timeout",
  "blacklisted",
  "test_sat",
  "sat_low_power",
] as const;
