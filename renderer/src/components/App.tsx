// Top-level screen switch and theme; the designer and start screen own everything below.
import { useEffect } from "react";
import { useSession } from "../state/session.ts";
import { useSettings } from "../state/settings.ts";
import { DesignerPage } from "../pages/designer/DesignerPage.tsx";
import { StartScreen } from "./start/StartScreen.tsx";
import { BenchNav, BenchPage } from "../pages/bench/BenchPage.tsx";
import { useBench } from "../pages/bench/store.ts";
import { ExportNav } from "../pages/export/ExportNav.tsx";
import { ExportPage } from "../pages/export/ExportPage.tsx";
import { useExport } from "../pages/export/store.ts";
import { LoadTestNav, LoadTestPage } from "../pages/loadtest/LoadTestPage.tsx";
import { useLoadTest } from "../pages/loadtest/store.ts";
import { DecideNav, DecidePage } from "../pages/decide/DecidePage.tsx";
import { useDecide } from "../pages/decide/store.ts";
import { StackNav, StackPage } from "../pages/stack/StackPage.tsx";
import { useStack } from "../pages/stack/store.ts";
import { ChannelNav, ChannelPage } from "../pages/channel/ChannelPage.tsx";
import { useChannel } from "../pages/channel/store.ts";

export function App() {
  const screen = useSession((s) => s.screen);
  const theme = useSettings((s) => s.theme);
  const bench = useBench((s) => s.open);
  const exporting = useExport((s) => s.open);
  const loadtest = useLoadTest((s) => s.open);
  const decide = useDecide((s) => s.page);
  const stack = useStack((s) => s.open);
  const channel = useChannel((s) => s.open);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <div className="app" data-testid="app" data-screen={screen}>
      {channel ? (
        <ChannelPage />
      ) : stack ? (
        <StackPage />
      ) : loadtest ? (
        <LoadTestPage />
      ) : bench ? (
        <BenchPage />
      ) : screen === "designer" && exporting ? (
        <ExportPage />
      ) : screen === "designer" && decide ? (
        <DecidePage />
      ) : screen === "designer" ? (
        <DesignerPage />
      ) : screen === "loading" ? (
        <div className="loading" data-testid="loading">
          Opening…
        </div>
      ) : (
        <StartScreen />
      )}
      <BenchNav />
      <ExportNav />
      <LoadTestNav />
      <DecideNav />
      <StackNav />
      <ChannelNav />
    </div>
  );
}
