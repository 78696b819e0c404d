// Controls only a simulator has: a satellite pass on demand, a downlink to deliver, the reset pin, the
// line speed and the start-up quirk.
import { useEffect, useState } from "react";
import type { Res } from "#host/api/contract.ts";
import { ActionButton, Card, ErrorLine, FlashLine } from "./benchParts.tsx";
import { act, flash, useBench } from "./benchStore.ts";

export function SimCard() {
  const simulated = useBench((s) => s.status?.simulated && s.status.state === "ready");
  const [hex, setHex] = useState("0102030405060708");
  const [delay, setDelay] = useState("8000");
  const [settings, setSettings] = useState<Res<"devkit.simSettings"> | null>(null);
  useEffect(() => {
    if (simulated) void act("sim", async (h) => setSettings(await h.call("devkit.simSettings", {})));
  }, [simulated]);
  if (!simulated) return null;
  const toggle = (patch: { lineRate?: boolean; firstRequestLost?: boolean }, said: string) =>
    void act("sim", async (h) => {
      setSettings(await h.call("devkit.simSettings", patch));
      flash("sim", said);
    });
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
              flash(
                "sim",
                r.sent.length
                  ? `Pass: ${r.sent.length} payload(s) sent and acknowledged${r.downlink ? ", a downlink came down" : ""}.`
                  : "Pass: nothing was waiting.",
              );
            })
          }
        >
          Satellite pass now
        </ActionButton>
        <ActionButton
          action="sim"
          testId="sim-reset"
          onClick={() =>
            void act(
              "sim",
              async (h) => (await h.call("devkit.simReset", {}), flash("sim", "Reset pin pulsed: the module reboots.")),
            )
          }
        >
          Reset module
        </ActionButton>
      </div>
      <div className="bench-row">
        <span className="faint">Pass</span>
        <input
          className={`input narrow${Number.isInteger(delayMs) && delayMs >= 0 ? "" : " invalid"}`}
          aria-label="Pass delay (ms)"
          value={delay}
          onChange={(e) => setDelay(e.target.value)}
        />
        <span className="faint">ms after an enqueue</span>
        <ActionButton
          action="sim"
          disabled={!Number.isInteger(delayMs) || delayMs < 0}
          onClick={() =>
            void act(
              "sim",
              async (h) => (
                await h.call("devkit.simSettings", { autoPass: true, passDelayMs: delayMs }),
                flash("sim", `Passes come ${delayMs} ms after each enqueue.`)
              ),
            )
          }
        >
          Set
        </ActionButton>
        <ActionButton
          action="sim"
          onClick={() =>
            void act(
              "sim",
              async (h) => (
                await h.call("devkit.simSettings", { autoPass: false }),
                flash("sim", "Automatic passes off.")
              ),
            )
          }
        >
          Off
        </ActionButton>
      </div>
      {settings ? (
        <div className="bench-row">
          <label
            className="bench-inline"
            title="About 1 ms per character, as on the module's UART: a 160-byte PLD_ER takes ≈ 346 ms to arrive"
          >
            <input
              type="checkbox"
              data-testid="sim-line-rate"
              checked={settings.lineRate}
              onChange={(e) =>
                toggle(
                  { lineRate: e.target.checked },
                  e.target.checked ? "The line runs at 9600 baud." : "The line runs as fast as the port.",
                )
              }
            />
            9600-baud line
          </label>
          <label
            className="bench-inline"
            title="Real modules may not answer the first request after power-up or a reset; clients send a dummy first"
          >
            <input
              type="checkbox"
              data-testid="sim-first-request-lost"
              checked={settings.firstRequestLost}
              onChange={(e) =>
                toggle(
                  { firstRequestLost: e.target.checked },
                  e.target.checked
                    ? "The first request after a restart goes unanswered."
                    : "The first request after a restart is answered.",
                )
              }
            />
            Lose the first request after a restart
          </label>
        </div>
      ) : null}
      <div className="bench-row">
        <input
          className={`input mono${bytes === 8 || bytes === 40 ? "" : " invalid"}`}
          aria-label="Downlink (hex)"
          value={hex}
          onChange={(e) => setHex(e.target.value)}
        />
        <ActionButton
          action="sim"
          disabled={bytes !== 8 && bytes !== 40}
          onClick={() =>
            void act(
              "sim",
              async (h) => (
                await h.call("devkit.simDownlink", { hex: clean }),
                flash("sim", "Downlink waits for the next pass with an uplink.")
              ),
            )
          }
        >
          Queue downlink
        </ActionButton>
      </div>
      {bytes !== 8 && bytes !== 40 ? <p className="field-msg">a downlink command holds 8 or 40 bytes</p> : null}
      <FlashLine name="sim" />
      <ErrorLine action="sim" />
    </Card>
  );
}
