// The module configuration (ack reporting, geolocation, EVT pin masks, position) and the Wi-Fi DevKit setup.
import { useEffect, useState } from "react";
import {
  checkWifi,
  WIFI_FIELDS,
  WIFI_TOKEN_CHARS,
  type ModuleConfig,
  type WifiSettings,
} from "#contracts/devkit/settings.ts";
import { ActionButton, Card, Empty, ErrorLine, FlashLine } from "./benchParts.tsx";
import { act, flash, loadInfo, useBench } from "./benchStore.ts";

const FLAGS: [keyof Omit<ModuleConfig, "evtMask">, string, string][] = [
  ["satAck", "Report satellite acks", "EVT bit 0 and SAK_RR; off: acked messages leave the queue silently"],
  ["geolocation", "Add position to uplinks", "8 more bytes per message"],
  ["ephemeris", "Use ephemeris", "predict passes instead of searching continuously"],
  ["deepSleep", "Deep sleep", "the module sleeps between contacts"],
];
const MASKS: [keyof ModuleConfig["evtMask"], string][] = [
  ["satAck", "satellite ack"],
  ["reset", "module reset"],
  ["command", "downlink command"],
  ["messagePending", "message pending"],
];

export function ConfigCard() {
  const info = useBench((s) => s.info);
  const ready = useBench((s) => s.status?.state === "ready");
  const [cfg, setCfg] = useState<ModuleConfig | null>(null);
  const [lat, setLat] = useState("");
  const [lon, setLon] = useState("");
  useEffect(() => {
    if (info) setCfg(info.config);
  }, [info]);

  if (!cfg || !info)
    return (
      <Card title="Configuration" testId="config-card">
        <Empty>Connect to read and change the configuration.</Empty>
      </Card>
    );

  const latN = lat.trim() === "" ? null : Number(lat);
  const lonN = lon.trim() === "" ? null : Number(lon);
  const posProblem =
    (latN === null) !== (lonN === null)
      ? "give both latitude and longitude, or neither"
      : latN !== null && (!Number.isFinite(latN) || Math.abs(latN) > 90)
        ? "latitude is within ±90°"
        : lonN !== null && (!Number.isFinite(lonN) || Math.abs(lonN) > 180)
          ? "longitude is within ±180°"
          : null;
  const write = (save: boolean) =>
    act("configure", async (h) => {
      await h.call("devkit.configure", {
        config: cfg,
        position: latN !== null && lonN !== null ? { lat: latN, lon: lonN } : null,
        save,
      });
      flash(
        "configure",
        save ? "Written and saved to flash." : "Written (RAM only: a reset brings back the saved configuration).",
      );
      await loadInfo();
    });
  return (
    <Card title="Configuration" testId="config-card">
      <div className="bench-checks">
        {FLAGS.map(([k, label, help]) => (
          <label key={k} className="check" title={help}>
            <input
              type="checkbox"
              data-testid={`cfg-${k}`}
              checked={cfg[k]}
              onChange={(e) => setCfg({ ...cfg, [k]: e.target.checked })}
            />
            {label}
          </label>
        ))}
      </div>
      <p className="bench-sub">EVT pin raised on</p>
      <div className="bench-checks">
        {MASKS.map(([k, label]) => (
          <label key={k} className="check">
            <input
              type="checkbox"
              data-testid={`mask-${k}`}
              checked={cfg.evtMask[k]}
              onChange={(e) => setCfg({ ...cfg, evtMask: { ...cfg.evtMask, [k]: e.target.checked } })}
            />
            {label}
          </label>
        ))}
      </div>
      <p className="bench-sub">Position sent with uplinks (optional)</p>
      <div className="bench-row">
        <input
          className={`input${posProblem ? " invalid" : ""}`}
          aria-label="Latitude"
          placeholder="latitude °"
          value={lat}
          onChange={(e) => setLat(e.target.value)}
        />
        <input
          className={`input${posProblem ? " invalid" : ""}`}
          aria-label="Longitude"
          placeholder="longitude °"
          value={lon}
          onChange={(e) => setLon(e.target.value)}
        />
      </div>
      {posProblem ? <p className="field-msg">{posProblem}</p> : null}
      <div className="bench-row">
        <ActionButton
          action="configure"
          disabled={!ready || !!posProblem}
          onClick={() => void write(false)}
          testId="cfg-write"
        >
          Write
        </ActionButton>
        <ActionButton
          action="configure"
          primary
          disabled={!ready || !!posProblem}
          onClick={() => void write(true)}
          testId="cfg-save"
        >
          Write and save
        </ActionButton>
      </div>
      <FlashLine name="configure" />
      <ErrorLine action="configure" />
    </Card>
  );
}

const WIFI_LABELS: Record<keyof WifiSettings, string> = {
  ssid: "Network (SSID)",
  password: "Password",
  token: "Portal token",
};

export function WifiCard() {
  const product = useBench((s) => s.status?.productId ?? null);
  const ready = useBench((s) => s.status?.state === "ready");
  const hostIssues = useBench((s) => s.wifiIssues);
  const [w, setW] = useState<WifiSettings>({ ssid: "", password: "", token: "" });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const problems = Object.fromEntries(checkWifi(w).map((p) => [p.field, p.message]));
  const send = () =>
    act("wifi", async (h) => {
      useBench.setState({ wifiIssues: {} });
      try {
        await h.call("devkit.wifi", { ...w, save: true });
        flash("wifi", "Wi-Fi settings written and saved; the DevKit joins the network on its next contact.");
      } catch (e) {
        const issues = (e as { issues?: { path: string; message: string }[] }).issues ?? [];
        useBench.setState({ wifiIssues: Object.fromEntries(issues.map((i) => [i.path, i.message])) });
        throw e;
      }
    });
  return (
    <Card title="Wi-Fi DevKit setup" testId="wifi-card">
      {product !== 4 ? (
        <Empty>
          Only the Wi-Fi DevKit (product 4) takes Wi-Fi settings
          {product === 3 ? "; this module is an Astronode S." : ". Connect one to set it up."}
        </Empty>
      ) : (
        <>
          {(Object.keys(WIFI_LABELS) as (keyof WifiSettings)[]).map((k) => {
            const msg = hostIssues[k] ?? (touched[k] ? problems[k] : undefined);
            return (
              <label key={k} className="bench-field">
                <span>
                  {WIFI_LABELS[k]}{" "}
                  <span className="faint">
                    {w[k].length}/{k === "token" ? WIFI_TOKEN_CHARS : WIFI_FIELDS[k] - 1}
                  </span>
                </span>
                <input
                  className={`input mono${msg ? " invalid" : ""}`}
                  data-testid={`wifi-${k}`}
                  type={k === "password" ? "password" : "text"}
                  value={w[k]}
                  onChange={(e) => {
                    setW({ ...w, [k]: e.target.value });
                    setTouched({ ...touched, [k]: true });
                  }}
                />
                {msg ? (
                  <span className="field-msg" data-testid={`wifi-${k}-msg`}>
                    {msg}
                  </span>
                ) : null}
              </label>
            );
          })}
          <div className="bench-row">
            <ActionButton
              action="wifi"
              primary
              testId="wifi-send"
              disabled={!ready || Object.keys(problems).length > 0}
              onClick={() => void send()}
            >
              Write and save
            </ActionButton>
          </div>
          <FlashLine name="wifi" />
          <ErrorLine action="wifi" />
        </>
      )}
    </Card>
  );
}
