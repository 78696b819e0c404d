// Controls only a simulator has: a satellite pass on demand, a downlink to deliver, the reset pin.
import { useState } from "react";
import { act, flash, useBench } from "./store.ts";
import { ActionButton, Card, ErrorLine, FlashLine } from "./ui.tsx";

export function SimCard() {
  const simulated = useBench((s) => s.status?.simulated && s.status.state === "ready");
  const [hex, setHex] = useState("0102030405060708");
  const [delay, setDelay] = useState("8000");
  if (!simulated) return null;
  const clean = hex.replace(/\s/g, "");
  const bytes = /^([0-9a-fA-F]{2})*$/.test(clean) ? clean.length / 2 : -1;
  const delayMs = Number(delay);
  return (
    <Card title="Simulator" testId="sim-card">
      <div className="bench-row">
        <ActionButton
          action="sim"
          primary
          testId="sim-pass"
          onClick={() =>
            void act("sim", async (h) => {
              const r = await h.call("devkit.simPass", {});
              flash("sim", r.sent.length ? `Pass: ${r.sent.length} payload(s) sent and acknowledged${r.downlink ? ", a downlink came down" : ""}.` : "Pass: nothing was waiting.");
            })
          }
        >
          Satellite pass now
        </ActionButton>
        <ActionButton action="sim" testId="sim-reset" onClick={() => void act("sim", async (h) => (await h.call("devkit.simReset", {}), flash("sim", "Reset pin pulsed: the module reboots.")))}>
          Reset module
        </ActionButton>
      </div>
      <div className="bench-row">
        <span className="faint">Pass</span>
        <input className={`input narrow${Number.isInteger(delayMs) && delayMs >= 0 ? "" : " invalid"}`} aria-label="Pass delay (ms)" value={delay} onChange={(e) => setDelay(e.target.value)} />
        <span className="faint">ms after an enqueue</span>
        <ActionButton action="sim" disabled={!Number.isInteger(delayMs) || delayMs < 0} onClick={() => void act("sim", async (h) => (await h.call("devkit.simSettings", { autoPass: true, passDelayMs: delayMs }), flash("sim", `Passes come ${delayMs} ms after each enqueue.`)))}>
          Set
        </ActionButton>
        <ActionButton action="sim" onClick={() => void act("sim", async (h) => (await h.call("devkit.simSettings", { autoPass: false }), flash("sim", "Automatic passes off.")))}>
          Off
        </ActionButton>
      </div>
      <div className="bench-row">
        <input className={`input mono${bytes === 8 || bytes === 40 ? "" : " invalid"}`} aria-label="Downlink (hex)" value={hex} onChange={(e) => setHex(e.target.value)} />
        <ActionButton action="sim" disabled={bytes !== 8 && bytes !== 40} onClick={() => void act("sim", async (h) => (await h.call("devkit.simDownlink", { hex: clean }), flash("sim", "Downlink waits for the next pass with an uplink.")))}>
          Queue downlink
        </ActionButton>
      </div>
      {bytes !== 8 && bytes !== 40 ? <p className="field-msg">a downlink command holds 8 or 40 bytes</p> : null}
      <FlashLine name="sim" />
      <ErrorLine action="sim" />
    </Card>
  );
}
