// Who the module is: product, firmware, GUID, serial and product numbers, its clock and the next contact.
import { loadInfo, useBench } from "./store.ts";
import { ActionButton, Card, duration, Empty, ErrorLine, KV } from "./ui.tsx";

export function ModuleCard() {
  const info = useBench((s) => s.info);
  const ready = useBench((s) => s.status?.state === "ready");
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
        <Empty testId="module-empty">{ready ? "Reading the module…" : "Connect a DevKit (or the simulator) to see its product, firmware, GUID and clock."}</Empty>
      ) : (
        <KV
          rows={[
            ["Product", `${info.productName} (id ${info.productId}, hw rev ${info.hardwareRevision})`, "info-product"],
            ["Firmware", info.firmware],
            ["GUID", info.guid, "info-guid"],
            ["Serial number", info.serial],
            ["Product number", info.productNumber],
            ["Module clock", `${info.rtc.replace("T", " ").slice(0, 19)} UTC`, "info-rtc"],
            ["Next contact", `in ${duration(info.nextContactS)}`],
          ]}
        />
      )}
      <ErrorLine action="info" />
    </Card>
  );
}
