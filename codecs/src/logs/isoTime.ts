// ISO 8601 date-times as loggers write them ("2010-08-05T14:23:59Z", "2024-03-01 08:00:00.25+01:00"),
// read into epoch seconds for a field that carries epoch seconds. Parsed by hand, not with Date.parse:
// Date keeps milliseconds only, and it reads a time without a zone as local time, silently.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:(Z|z)|([+-])(\d{2}):?(\d{2}))?$/;

export type IsoTime = { ok: true; seconds: number } | { ok: false; reason: string } | undefined;

/** Epoch seconds of an ISO 8601 date-time; undefined when the text is no date-time at all. */
export function parseIsoTime(text: string): IsoTime {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  if (z === undefined && sign === undefined)
    return { ok: false, reason: `"${text}" gives no time zone: add Z for UTC or an offset such as +02:00` };
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s ?? "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999
  const back = new Date(0);
  back.setUTCFullYear(year, month - 1, day);
  back.setUTCHours(hour, minute, second, 0);
  if (
    month < 1 ||
    month > 12 ||
    back.getUTCDate() !== day ||
    back.getUTCMonth() !== month - 1 ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return { ok: false, reason: `"${text}" is not a date and time of the calendar` };
  const offset = sign === undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
  return { ok: true, seconds: back.getTime() / 1000 + (frac === undefined ? 0 : Number(frac)) - offset };
}
