// The report's "Readings per message" figures (issue 27): how many readings each format puts in one
// message, and the messages a day that leaves per device — the numbers a reader compares across
// formats, drawn like the cost charts (one bar per format in its colour).
import { CODECS, type FormatId } from "#codecs";
import type { ReportModel } from "#planning";
import { FormatBars } from "../cost/charts.tsx";
import { count } from "../money.ts";

type BatchFormats = NonNullable<ReportModel["batch"]>["formats"];

const short = (f: FormatId) => CODECS[f].info.short;

/** Readings carried by one message, per format. */
export function ReadingsPerMessageChart({
  formats,
  width,
  height,
}: {
  formats: BatchFormats;
  width: number;
  height: number;
}) {
  const data = formats.map((f) => ({ format: f.format, label: short(f.format), value: f.readingsPerMessage }));
  const n = (v: number) => `${count(v)} reading${v === 1 ? "" : "s"}`;
  return <FormatBars data={data} axis={(v) => count(v)} tip={n} width={width} height={height} />;
}

/** Messages one device sends a day, per format (readings a day ÷ readings per message). */
export function MessagesPerDayChart({
  formats,
  width,
  height,
}: {
  formats: BatchFormats;
  width: number;
  height: number;
}) {
  const data = formats.map((f) => ({ format: f.format, label: short(f.format), value: f.messagesPerDay }));
  const oneDecimal = (v: number) => count(v, 1);
  return (
    <FormatBars
      data={data}
      axis={oneDecimal}
      tip={(v) => `${oneDecimal(v)} messages a day`}
      width={width}
      height={height}
    />
  );
}
