// The report's battery-life section: per format on the recommended platform, for the Budget view's device and
// cadence. Its chart (BatteryLifeChart at the report's width) is placed by the report, in a figure of its own.
import type { ReportBudget } from "#planning";
import { batchText, energyText, intervalText, lifeText, secondsText } from "./budgetModel.ts";

export function ReportBudgetSection({ budget: b }: { budget: ReportBudget }) {
  const d = b.whatIf.device;
  return (
    <>
      <p data-testid="report-budget-basis">
        {b.platformName}, one reading {intervalText(b.whatIf.intervalSeconds / 60)}
        {batchText(b.rows)}; a {d.batteryMah.toLocaleString("en-US")} mAh, {d.batteryVolts} V battery of which{" "}
        {Math.round(d.usableFraction * 100)} % is usable. Battery swaps are counted over {b.years} years.
        {b.why ? ` ${b.why}.` : ""}
      </p>
      {b.sentence ? (
        <p className="report-budget-sentence" data-testid="report-budget-sentence">
          {b.sentence}
        </p>
      ) : null}
      <table className="data compact" data-testid="report-budget">
        <thead>
          <tr>
            <th scope="col">Format</th>
            <th scope="col">On air</th>
            <th scope="col">Airtime / day</th>
            <th scope="col">Energy / reading</th>
            <th scope="col">Battery</th>
          </tr>
        </thead>
        <tbody>
          {b.rows.map((r) => (
            <tr key={r.format}>
              <th scope="row">{r.formatLabel}</th>
              <td className="num">
                {r.bytesOnAir} B{r.messagesPerRecord > 1 ? ` × ${r.messagesPerRecord.toLocaleString("en-US")}` : ""}
              </td>
              {r.budget ? (
                <>
                  <td className="num">
                    {secondsText(r.budget.airtimePerDayS)}
                    {r.budget.limits.some((l) => !l.ok)
                      ? ` (over ${r.budget.limits
                          .filter((l) => !l.ok)
                          .map((l) => l.label)
                          .join(", ")})`
                      : ""}
                  </td>
                  <td className="num">{energyText(r.budget.energyPerReadingJ.total)}</td>
                  <td className="num">{lifeText(r.budget.batteryLifeYears)}</td>
                </>
              ) : (
                <td colSpan={3} className="wrap">
                  {r.error}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
