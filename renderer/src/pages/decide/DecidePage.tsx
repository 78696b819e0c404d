// The decide pages' frame: a header with the way back to the designer, then the fleet cost, fit advisor or report.
import { useEffect, useLayoutEffect, useState } from "react";
import { createPortal } from "react-dom";
import { ThemeToggle } from "../../components/common/ThemeToggle.tsx";
import { useDesigner } from "../../state/designer.ts";
import { useSession } from "../../state/session.ts";
import { AdvisorPage } from "./advisor/AdvisorPage.tsx";
import { CostPage, ScenarioBar } from "./cost/CostPage.tsx";
import { ReportPage } from "./report/ReportPage.tsx";
import { DECIDE_PAGES, ensureCosts, openDecide, useDecide } from "./store.ts";
import "./decide.css";

export function DecidePage() {
  const page = useDecide((s) => s.page);
  const projectId = useDesigner((s) => s.projectId);
  const projectName = useDesigner((s) => s.projectName);
  useEffect(() => {
    void ensureCosts();
  }, [projectId]);
  const title = DECIDE_PAGES.find((p) => p.id === page)?.label ?? "";
  return (
    <>
      <header className="topbar screen-only">
        <button type="button" className="btn ghost" data-testid="decide-back" title="Back to the designer" onClick={() => openDecide(null)}>
          <span className="brand-mark" aria-hidden="true" />
          Designer
        </button>
        <span className="divider-v" aria-hidden="true" />
        <h1 className="decide-title">
          {title} <span className="muted">· {projectName}</span>
        </h1>
        {page === "cost" || page === "report" ? <ScenarioBar /> : null}
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <div className="decide-page" data-testid={`decide-${page}`}>
        {page === "cost" ? <CostPage /> : page === "advisor" ? <AdvisorPage /> : page === "report" ? <ReportPage /> : null}
      </div>
    </>
  );
}

/**
 * The decide pages' entries in the page bar at the foot of the app (the bench page owns the bar; the entries are
 * portalled into it, or get a bar of their own when it is not there). Any other entry of the bar leaves our page.
 */
export function DecideNav() {
  const page = useDecide((s) => s.page);
  const screen = useSession((s) => s.screen);
  const [bar, setBar] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => setBar(document.querySelector<HTMLElement>("nav.app-nav:not(.decide-own-nav):not(.lt-own-nav)")), []);
  useEffect(() => {
    const leave = (e: MouseEvent) => {
      const item = e.target instanceof Element ? e.target.closest(".app-nav-item") : null;
      if (item && !item.classList.contains("decide-nav-item") && useDecide.getState().page) openDecide(null);
    };
    document.addEventListener("click", leave, true);
    return () => document.removeEventListener("click", leave, true);
  }, []);
  useEffect(() => {
    // the bar's own "Designer" entry still thinks it is current: the bar learns that one of ours is
    bar?.classList.toggle("decide-open", page !== null);
    return () => bar?.classList.remove("decide-open");
  }, [bar, page]);
  useEffect(() => {
    // leaving the project (back to the start screen) leaves these pages too
    if (screen === "start" && useDecide.getState().page) openDecide(null);
  }, [screen]);
  if (screen !== "designer") return null;
  const items = DECIDE_PAGES.map((p) => (
    <button key={p.id} type="button" className="app-nav-item decide-nav-item" aria-current={page === p.id ? "page" : undefined} data-testid={`nav-${p.id}`} onClick={() => openDecide(p.id)}>
      {p.label}
    </button>
  ));
  return bar ? createPortal(items, bar) : <nav className="app-nav decide-own-nav">{items}</nav>;
}
