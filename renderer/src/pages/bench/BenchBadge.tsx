// The bench's page-bar badge: loaded with the app (the page itself loads on first use), so the DevKit link state
// shows on every screen from the start.
import { useEffect } from "react";
import { startBench, useBench } from "./benchStore.ts";
import "./benchBadge.css";

/** The DevKit link state beside the bench's page-bar entry, on every screen. */
export function BenchBadge() {
  const status = useBench((s) => s.status);
  useEffect(() => startBench(), []);
  const state = status?.state ?? "disconnected";
  return (
    <span className={`bench-state ${state} compact`} title={status?.detail}>
      <span className="dot" aria-hidden="true" />
      {state === "ready"
        ? (status?.productName ?? "connected")
        : state === "reconnecting"
          ? "reconnecting"
          : state === "connecting"
            ? "connecting"
            : "no DevKit"}
    </span>
  );
}
