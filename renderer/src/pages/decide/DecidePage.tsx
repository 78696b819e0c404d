// The decide pages' frame: a header with the way back to the designer, then the fleet cost, budget, fit advisor or
// report.
import { useEffect } from "react";
import { AdvisorPage } from "./advisor/AdvisorPage.tsx";
import { BudgetPage } from "./budget/BudgetPage.tsx";
import { CostPage, ScenarioBar } from "./cost/CostPage.tsx";
import { ensureCosts } from "./decideStore.ts";
import { ReportPage } from "./report/ReportPage.tsx";
import { DECIDE_TABS } from "./tabs.ts";
import { BackLink } from "../../nav/BackLink.tsx";
import { KeepUntilPainted } from "../../nav/KeepUntilPainted.tsx";
import { useSlotRoute } from "../../nav/slotRoute.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { ThemeToggle } from "../../ui/ThemeToggle.tsx";
import "./decide.css";

export function DecidePage() {
  const route = useSlotRoute();
  const page = route.page === "decide" ? route.tab : null;
  const projectId = useDesigner((s) => s.projectId);
  const projectName = useDesigner((s) => s.projectName);
  useEffect(() => {
    void ensureCosts();
  }, [projectId]);
  const title = DECIDE_TABS.find((p) => p.id === page)?.label ?? "";
  return (
    <>
      <header className="topbar screen-only">
        <BackLink testId="decide-back" />
        <span className="divider-v" aria-hidden="true" />
        <h1 className="decide-title">
          {title} <span className="muted">· {projectName}</span>
        </h1>
        {page === "cost" || page === "budget" || page === "report" ? <ScenarioBar /> : null}
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <div className="decide-page" data-testid={`decide-${page}`}>
        {page === null ? null : (
          <KeepUntilPainted current={page}>
            {(tab) =>
              tab === "cost" ? (
                <CostPage />
              ) : tab === "budget" ? (
                <BudgetPage />
              ) : tab === "advisor" ? (
                <AdvisorPage />
              ) : tab === "report" ? (
                <ReportPage />
              ) : null
            }
          </KeepUntilPainted>
        )}
      </div>
    </>
  );
}
