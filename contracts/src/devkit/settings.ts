// The Astronode S settings the bench reads and writes — module configuration (CFG_WR / CFG_RR) and the
// Wi-Fi DevKit's network (WIF_WR) — with the form rules the Bench page and the host's handler both apply.
// The frames that carry them are devkit-bridge's (src/protocol/commands.ts).

export interface EvtMask {
  satAck: boolean;
  reset: boolean;
  command: boolean;
  messagePending: boolean;
}

export interface ModuleConfig {
  /** report satellite acks (EVT bit0 + SAK_RR); otherwise acked messages leave the queue silently */
  satAck: boolean;
  /** append the stored position (8 bytes) to every uplink */
  geolocation: boolean;
  ephemeris: boolean;
  deepSleep: boolean;
  /** which events raise the EVT pin */
  evtMask: EvtMask;
}

export interface WifiSettings {
  ssid: string;
  password: string;
  /** the portal token of a device with the Wi-Fi DevKit role: 96 characters */
  token: string;
}

/** field widths including the NUL terminator */
export const WIFI_FIELDS = { ssid: 33, password: 64, token: 97 } as const;
export const WIFI_TOKEN_CHARS = 96;

/** Form-level rules for Wi-Fi settings; each problem names its field. */
export function checkWifi(w: WifiSettings): { field: keyof WifiSettings; message: string }[] {
  const out: { field: keyof WifiSettings; message: string }[] = [];
  for (const key of ["ssid", "password", "token"] as const) {
    const v = w[key];
    const bad = [...v].find((ch) => !/[\x20-\x7e]/.test(ch));
    if (bad !== undefined)
      out.push({ field: key, message: `only printable ASCII is allowed (found ${JSON.stringify(bad)})` });
    else if (v.length > WIFI_FIELDS[key] - 1)
      out.push({ field: key, message: `at most ${WIFI_FIELDS[key] - 1} characters (${v.length} given)` });
  }
  if (w.ssid.length === 0 && !out.some((o) => o.field === "ssid"))
    out.push({ field: "ssid", message: "the network name is required" });
  if (w.token.length !== WIFI_TOKEN_CHARS && !out.some((o) => o.field === "token"))
    out.push({
      field: "token",
      message: `the portal token has exactly ${WIFI_TOKEN_CHARS} characters (${w.token.length} given)`,
    });
  return out;
}
