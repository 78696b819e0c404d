// The stack's page-bar badge: loaded with the app (the page itself loads on first use), so whether the stack runs
// shows on every screen.
import { useEffect } from "react";
import { isLive, startStack, useStack } from "./stackStore.ts";
import "./stackBadge.css";

/** A dot beside the page-bar entry, lit while the stack runs; the bar listens to the stack from the start. */
export function StackBadge() {
  const live = useStack((s) => isLive(s.status));
  useEffect(() => void startStack(), []);
  return (
    <span
      className={`stack-nav-dot${live ? " live" : ""}`}
      title={live ? "The stack is running" : "The stack is stopped"}
    />
  );
}
