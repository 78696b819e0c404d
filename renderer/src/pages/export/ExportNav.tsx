// The way to the Export page: a tab at the right end of the page bar while a project is open.
import { useEffect } from "react";
import { useSession } from "../../state/session.ts";
import { useBench } from "../bench/store.ts";
import { useLoadTest } from "../loadtest/store.ts";
import { openExportPage, useExport } from "./store.ts";

export function ExportNav() {
  const screen = useSession((s) => s.screen);
  const open = useExport((s) => s.open);
  const bench = useBench((s) => s.open);
  const loadtest = useLoadTest((s) => s.open);
  useEffect(() => {
    // another page took over: the Export page closes, so returning lands in the designer
    if (bench && useExport.getState().open) useExport.setState({ open: false });
  }, [bench]);
  useEffect(() => {
    // any other tab of the page bar (each owned by its page) means: leave this page too
    const onClick = (e: MouseEvent) => {
      const tab = e.target instanceof Element ? e.target.closest(".app-nav-item") : null;
      if (tab && !tab.classList.contains("export-nav") && useExport.getState().open) openExportPage(false);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
  useEffect(() => {
    if (screen !== "designer" && useExport.getState().open) useExport.setState({ open: false });
    else if (screen === "designer" && new URL(location.href).searchParams.get("page") === "export" && !useExport.getState().open) openExportPage(true);
  }, [screen]);
  // the pages that cover the designer hide this tab; their own tabs lead back
  if (screen !== "designer" || bench || loadtest) return null;
  return (
    <button type="button" className="app-nav-item export-nav" aria-current={open ? "page" : undefined} data-testid="nav-export" onClick={() => openExportPage(!open)}>
      Export code &amp; schemas
    </button>
  );
}
