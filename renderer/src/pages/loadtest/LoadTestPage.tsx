// The Load Test page: configure a simulated fleet, watch it run, keep, compare and export the results.
import { useEffect } from "react";
import { CompareCard } from "./CompareCard.tsx";
import { ConfigCard } from "./ConfigCard.tsx";
import { FomCard } from "./FomCard.tsx";
import { HistoryCard } from "./HistoryCard.tsx";
import { startLoadTest } from "./loadTestStore.ts";
import { ResultCard } from "./ResultCard.tsx";
import { RunCard } from "./RunCard.tsx";
import { BackLink } from "../../nav/BackLink.tsx";
import { ThemeToggle } from "../../ui/ThemeToggle.tsx";
import "./loadtest.css";

export function LoadTestPage() {
  useEffect(() => void startLoadTest(), []);
  return (
    <>
      <header className="topbar">
        <BackLink testId="lt-back" />
        <span className="divider-v" aria-hidden="true" />
        <h1 className="lt-title">Load test</h1>
        <span className="muted lt-small">simulated devices against the decoder stack, as in Kumar et al. 2026</span>
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <main className="lt-page" data-testid="loadtest-page">
        <ConfigCard />
        <RunCard />
        <ResultCard />
        <HistoryCard />
        <CompareCard />
        <FomCard />
      </main>
    </>
  );
}
