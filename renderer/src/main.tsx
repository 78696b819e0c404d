// Entry: connect to the host, start the sizes worker, read the route and open the project named in the URL, render.
import "./jitless.ts";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { connectHost } from "./host/index.ts";
import { PAGES, preloadPages } from "./nav/pages.tsx";
import { startRouting } from "./nav/routeStore.ts";
import { installPerfLog } from "./perf.ts";
import { listenToHost } from "./session/conflicts.ts";
import { openProject } from "./session/projects.ts";
import { useSession } from "./session/sessionStore.ts";
import { startAnalysis } from "./worker/controller.ts";
import "./styles/app.css";

const conn = connectHost();
useSession.setState({ api: conn.api, shell: conn.shell });
installPerfLog();
startRouting(PAGES);
listenToHost();
startAnalysis(
  () => new Worker(new URL("./worker/sizes.worker.ts", import.meta.url), { type: "module", name: "sizes" }),
);

const projectId = new URL(location.href).searchParams.get("project");
if (conn.missingToken) {
  useSession.setState({
    startError: {
      title: "No session token",
      detail: "Open SatPayload Studio with the URL the launcher printed (it ends in #token=…).",
    },
  });
} else if (projectId) {
  void openProject(projectId);
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// the other pages' code, once the first screen is up and nothing else is running
const idle = (cb: () => void) =>
  typeof requestIdleCallback === "function" ? requestIdleCallback(cb, { timeout: 5000 }) : setTimeout(cb, 2000);
idle(preloadPages);
