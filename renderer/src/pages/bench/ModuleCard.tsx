// Who the module is: product, firmware, GUID, serial and product numbers, its clock and the next contact.
// The clock and the countdown run on from the last read; the module is read again every minute and when
// the contact is due, so neither drifts from what the module says.
import { useEffect, useRef, useState } from "react";
import { ActionButton, Card, duration, Empty, ErrorLine, KV } from "./benchParts.tsx";
import { loadInfo, useBench } from "./benchStore.ts";

const REREAD_S = 60;
/** never two automatic reads closer than this, whatever the module answers (a contact reported as due now, errors) */
const MIN_GAP_MS = 10_000;

function useSecondTick(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

export function ModuleCard() {
  const info = useBench((s) => s.info);
  const infoAt = useBench((s) => s.infoAt);
  const reading = useBench((s) => !!s.busy["info"]);
  const ready = useBench((s) => s.status?.state === "ready");
  const now = useSecondTick(ready && info !== null);
  const elapsedS = info ? Math.max(0, Math.floor((now - infoAt) / 1000)) : 0;
  const nextS = info ? info.nextContactS - elapsedS : 0;
  const triedAt = useRef(0);
  // the countdown ending is a reason to read again; a module that already said "now" is left alone until the minute is up
  const countdownEnded = info !== null && info.nextContactS > 0 && nextS <= 0;
  const due =
    ready &&
    info !== null &&
    !reading &&
    now - triedAt.current >= MIN_GAP_MS &&
    (elapsedS >= REREAD_S || countdownEnded);
  useEffect(() => {
    if (!due) return;
    triedAt.current = Date.now();
    void loadInfo();
  }, [due]);
  return (
    <Card
      title="Module"
      testId="module-card"
      actions={
        <ActionButton action="info" disabled={!ready} onClick={() => void loadInfo()}>
          Read
        </ActionButton>
      }
    >
      {!info ? (
        <Empty testId="module-empty">
          {ready
            ? "Reading the module…"
            : "Connect a DevKit (or the simulator) to see its product, firmware, GUID and clock."}
        </Empty>
      ) : (
        <KV
          rows={[
            ["Product", `${info.productName} (id ${info.productId}, hw rev ${info.hardwareRevision})`, "info-product"],
            ["Firmware", info.firmware],
            ["GUID", info.guid, "info-guid"],
            ["Serial number", info.serial],
            ["Product number", info.productNumber],
            [
              "Module clock",
              `${new Date(Date.parse(info.rtc) + elapsedS * 1000).toISOString().replace("T", " ").slice(0, 19)} UTC`,
              "info-rtc",
            ],
            ["Next contact", nextS > 0 ? `in ${duration(nextS)}` : "due now", "info-next-contact"],
          ]}
        />
      )}
      <ErrorLine action="info" />
    </Card>
  );
}
