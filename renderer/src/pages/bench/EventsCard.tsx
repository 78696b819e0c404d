// SAK/EVT polling and what it brings: acks, downlink commands, resets, lost connections.
import { useState } from "react";
import { ActionButton, Card, clock, Empty, ErrorLine } from "./benchParts.tsx";
import { act, readDownlink, useBench } from "./benchStore.ts";

const BITS = [
  ["satAck", "ack"],
  ["reset", "reset"],
  ["command", "downlink"],
  ["messagePending", "uplink pending"],
] as const;

export function EventsCard() {
  const status = useBench((s) => s.status);
  const events = useBench((s) => s.events);
  const notices = useBench((s) => s.notices);
  const downlink = useBench((s) => s.downlink);
  const ready = status?.state === "ready";
  const [interval, setIntervalText] = useState("2000");
  const ms = Number(interval);
  const badInterval = !Number.isInteger(ms) || ms < 250 || ms > 60_000;
  return (
    <Card
      title="Events"
      testId="events-card"
      actions={
        <ActionButton
          action="poll"
          disabled={!ready}
          testId="poll-now"
          onClick={() => void act("poll", (h) => h.call("devkit.poll", {}))}
        >
          Poll now
        </ActionButton>
      }
    >
      <div className="bench-row">
        <label className="check">
          <input
            type="checkbox"
            data-testid="polling"
            checked={status?.polling.enabled ?? true}
            disabled={!status || badInterval}
            onChange={(e) =>
              void act("polling", (h) => h.call("devkit.polling", { enabled: e.target.checked, intervalMs: ms }))
            }
          />
          Poll EVT every
        </label>
        <input
          className={`input narrow${badInterval ? " invalid" : ""}`}
          aria-label="Polling interval (ms)"
          value={interval}
          onChange={(e) => setIntervalText(e.target.value)}
        />
        <span className="faint">ms</span>
      </div>
      <div className="bench-bits" data-testid="evt-bits">
        {BITS.map(([k, label]) => (
          <span
            key={k}
            className={`bench-bit${events?.[k] ? " on" : ""}`}
            data-testid={`evt-${k}`}
            data-on={!!events?.[k]}
          >
            {label}
          </span>
        ))}
      </div>
      <ErrorLine action={["poll", "polling"]} />
      <p className="bench-sub">Downlink command</p>
      {downlink ? (
        <div className="bench-row">
          <span className="mono" data-testid="downlink-hex">
            {downlink.hex}
          </span>
          <span className="faint">
            {downlink.bytes} B · {downlink.createdAt.replace("T", " ").slice(0, 19)}
          </span>
        </div>
      ) : (
        <Empty>No downlink command waiting.</Empty>
      )}
      <div className="bench-row">
        <ActionButton action="downlink" disabled={!ready} onClick={() => void readDownlink()}>
          Read
        </ActionButton>
        <ActionButton
          action="downlink"
          disabled={!ready || !downlink}
          testId="downlink-clear"
          onClick={() =>
            void act(
              "downlink",
              async (h) => (await h.call("devkit.downlinkClear", {}), useBench.setState({ downlink: null })),
            )
          }
        >
          Clear
        </ActionButton>
      </div>
      <ErrorLine action="downlink" />
      <p className="bench-sub">Notifications</p>
      {notices.length ? (
        <ul className="bench-notices" data-testid="notices">
          {notices.slice(0, 12).map((n) => (
            <li key={n.seq} className={`notice-${n.kind}`} data-kind={n.kind}>
              <span className="mono faint">{clock(n.at)}</span> {n.message}
            </li>
          ))}
        </ul>
      ) : (
        <Empty>Acks, downlinks and resets show up here.</Empty>
      )}
    </Card>
  );
}
