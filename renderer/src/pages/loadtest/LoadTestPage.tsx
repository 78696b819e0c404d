// The Load Test page: configure a simulated fleet, watch it run, keep, compare and export the results.
import { useEffect, useLayoutEffect, useState } from "react";
import { createPortal } from "react-dom";
import { ThemeToggle } from "../../components/common/ThemeToggle.tsx";
import { CompareCard } from "./CompareCard.tsx";
import { ConfigCard } from "./ConfigCard.tsx";
import { FomCard } from "./FomCard.tsx";
import { HistoryCard } from "./HistoryCard.tsx";
import { ResultCard } from "./ResultCard.tsx";
import { RunCard } from "./RunCard.tsx";
import { openLoadTest, startLoadTest, useLoadTest } from "./store.ts";
import "./loadtest.css";

export function LoadTestPage() {
  useEffect(() => void startLoadTest(), []);
  return (
    <>
      <header className="topbar">
        <button type="button" className="btn ghost" data-testid="lt-back" title="Back to the designer" onClick={() => openLoadTest(false)}>
          <span className="brand-mark" aria-hidden="true" />
          Designer
        </button>
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

/**
 * The page's entry in the app's page bar (another page's component renders the bar): a button placed
 * into it, which also marks the bar while this page is up so the other entries read as not current.
 */
export function LoadTestNav() {
  const open = useLoadTest((s) => s.open);
  const running = useLoadTest((s) => s.active !== null);
  const [bar, setBar] = useState<HTMLElement | null>(null);
  // the bar is another component's element: find it once it is in the document
  useLayoutEffect(() => setBar(document.querySelector<HTMLElement>("nav.app-nav:not(.lt-own-nav)")), []);
  useEffect(() => void startLoadTest(), []);
  useEffect(() => {
    bar?.classList.toggle("lt-open", open);
    return () => bar?.classList.remove("lt-open");
  }, [bar, open]);
  useEffect(() => {
    // any other page entry (wherever its page put it) leaves this page first
    const leave = (e: MouseEvent) => {
      const item = e.target instanceof Element ? e.target.closest(".app-nav-item") : null;
      if (item && !item.classList.contains("lt-nav-item") && useLoadTest.getState().open) openLoadTest(false);
    };
    document.addEventListener("click", leave, true);
    return () => document.removeEventListener("click", leave, true);
  }, []);
  const button = (
    <button type="button" className="app-nav-item lt-nav-item" aria-current={open ? "page" : undefined} data-testid="nav-loadtest" onClick={() => openLoadTest(true)}>
      Load test
      {running ? <span className="lt-nav-running" title="A load test is running" /> : null}
    </button>
  );
  return bar ? createPortal(button, bar) : <nav className="app-nav lt-own-nav">{button}</nav>;
}
