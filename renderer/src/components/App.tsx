// Top-level screen switch and theme; the designer and start screen own everything below.
import { useEffect } from "react";
import { useSession } from "../state/session.ts";
import { useSettings } from "../state/settings.ts";
import { DesignerPage } from "./designer/DesignerPage.tsx";
import { StartScreen } from "./start/StartScreen.tsx";

export function App() {
  const screen = useSession((s) => s.screen);
  const theme = useSettings((s) => s.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <div className="app" data-testid="app" data-screen={screen}>
      {screen === "designer" ? (
        <DesignerPage />
      ) : screen === "loading" ? (
        <div className="loading" data-testid="loading">
          Opening…
        </div>
      ) : (
        <StartScreen />
      )}
    </div>
  );
}
