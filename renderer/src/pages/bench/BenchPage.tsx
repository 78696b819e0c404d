// The DevKit bench: connect a DevKit (or the simulator), configure it, send the current design, watch the
// queue, acks, downlinks and every frame on the line.
import { useEffect } from "react";
import { refreshPorts, startBench } from "./benchStore.ts";
import { ConfigCard, WifiCard } from "./ConfigCard.tsx";
import { ConnectionBar, PortProblems } from "./ConnectionBar.tsx";
import { CountersCard } from "./CountersCard.tsx";
import { EventsCard } from "./EventsCard.tsx";
import { LogCard } from "./LogCard.tsx";
import { ModuleCard } from "./ModuleCard.tsx";
import { QueueCard } from "./QueueCard.tsx";
import { SendCard } from "./SendCard.tsx";
import { SimCard } from "./SimCard.tsx";
import { BackLink } from "../../nav/BackLink.tsx";
import { ThemeToggle } from "../../ui/ThemeToggle.tsx";
import "./bench.css";

export function BenchPage() {
  useEffect(() => {
    startBench();
    void refreshPorts();
  }, []);
  return (
    <>
      <header className="topbar">
        <BackLink testId="bench-back" />
        <span className="divider-v" aria-hidden="true" />
        <h1 className="bench-title">DevKit bench</h1>
        <ConnectionBar />
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <PortProblems />
      <main className="bench" data-testid="bench-page">
        <div className="bench-col">
          <ModuleCard />
          <ConfigCard />
          <WifiCard />
        </div>
        <div className="bench-col">
          <SendCard />
          <QueueCard />
        </div>
        <div className="bench-col">
          <EventsCard />
          <SimCard />
          <CountersCard />
        </div>
        <LogCard />
      </main>
    </>
  );
}
