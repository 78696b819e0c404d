// The load test's page-bar badge: loaded with the app (the page itself loads on first use), so a run in progress
// shows on every screen.
import { useEffect } from "react";
import { startLoadTest, useLoadTest } from "./loadTestStore.ts";
import "./loadTestBadge.css";

/** A dot beside the page-bar entry while a load test runs (the form and history load with the app). */
export function LoadTestBadge() {
  const running = useLoadTest((s) => s.active !== null);
  useEffect(() => void startLoadTest(), []);
  return running ? <span className="lt-nav-running" title="A load test is running" /> : null;
}
