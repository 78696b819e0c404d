// A user's own log (CSV or JSON Lines) read into typed records: real data in, every bad value named
// by line and field, nothing dropped without saying so.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { LayoutInput } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import { parseCsv } from "../../src/logs/csv.ts";
import { describeLogProblem, detectLogFormat, importLog, MAX_LISTED } from "../../src/logs/importLog.ts";
import { parseIsoTime } from "../../src/logs/isoTime.ts";
import { toFloat32 } from "../../src/text/numbers.ts";
import { gpsTrack } from "../fixtures/gpsTrack.ts";
import { repoRoot } from "../helpers/python.ts";

const nested = parseLayout({
  format: "satlayout",
  version: 1,
  name: "Nested",
  fields: [
    { id: "id", key: "id", name: "id", presence: "required", type: { kind: "string", maxLength: 16 } },
    { id: "n", key: "n", name: "n", presence: "optional", type: { kind: "int", bits: 8, signed: false } },
    { id: "big", key: "big", name: "big", presence: "optional", type: { kind: "int", bits: 64, signed: true } },
    { id: "ok", key: "ok", name: "ok", presence: "optional", type: { kind: "bool" } },
    {
      id: "acc",
      key: "acc",
      name: "acc",
      presence: "optional",
      type: { kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount: 3 },
    },
    {
      id: "gps",
      key: "gps",
      name: "gps",
      presence: "optional",
      type: {
        kind: "group",
        fields: [
          {
            id: "lat",
            key: "lat",
            name: "lat",
            presence: "required",
            type: { kind: "float", bits: 32, min: -90, max: 90 },
          },
          {
            id: "at",
            key: "at",
            name: "at",
            presence: "required",
            type: { kind: "timestamp", encoding: "epoch", resolution: 0.001 },
          },
        ],
      },
    },
  ],
} satisfies LayoutInput);

describe("CSV", () => {
  test("the public GPS track: every point, times from ISO 8601, values as logged", () => {
    const text = readFileSync(path.join(repoRoot, "codecs/test/fixtures/data/cerknicko-jezero.csv"), "utf8");
    const log = importLog(gpsTrack, text);
    expect(log.format).toBe("csv");
    expect(log.problems).toEqual([]);
    expect(log.records).toHaveLength(296);
    expect(log.lines[0]).toBe(2);
    expect(log.records[0]).toEqual({
      time: Date.parse("2010-08-05T14:23:59Z") / 1000,
      lat: 45.772175035,
      lon: 14.357659249,
      ele: toFloat32(542.320923),
    });
    expect(log.records[295]!.time).toBe(Date.parse("2010-08-05T16:23:49Z") / 1000);
  });

  test("groups by dotted path, arrays by element or whole, quotes, CRLF, a byte-order mark, 64-bit ints", () => {
    const text =
      '\uFEFFid,gps.lat,gps.at,acc[0],acc[1],big,ok\r\n"a,""b""\nc",45.5,2024-03-01T08:00:00.25+01:00,1,-2,9007199254740993,true\r\n' +
      "\r\nd,-1.25,17.5,,,,0\r\n";
    const log = importLog(nested, text);
    expect(log.problems).toEqual([]);
    expect(log.lines).toEqual([2, 5]);
    expect(log.records).toEqual([
      {
        id: 'a,"b"\nc',
        gps: { lat: 45.5, at: Date.parse("2024-03-01T07:00:00Z") / 1000 + 0.25 },
        acc: [1, -2],
        big: 9007199254740993n,
        ok: true,
      },
      { id: "d", gps: { lat: -1.25, at: 17.5 }, ok: false },
    ]);
    expect(importLog(nested, "id;acc\nx;[4,5,6]\n").records).toEqual([{ id: "x", acc: [4, 5, 6] }]);
  });

  test("every bad value of a line is named with its line and column; such a line gives no record", () => {
    const text = ["id,n,gps.lat,gps.at", "ok,1,2,3", "bad,300,91,3", "also,x,1,2024-01-01T00:00:00", ",2,1,1"].join(
      "\n",
    );
    const log = importLog(nested, text);
    expect(log.records).toEqual([{ id: "ok", n: 1, gps: { lat: 2, at: 3 } }]);
    expect(log.problems.map(describeLogProblem)).toEqual([
      "line 3, n: 300 is outside 0..255",
      "line 3, gps.lat: 91 is outside -90..90",
      'line 4, n: "x" is not an integer',
      'line 4, gps.at: "2024-01-01T00:00:00" gives no time zone: add Z for UTC or an offset such as +02:00',
      "line 5, id: is required",
    ]);
  });

  test("a column the layout does not have stops the import: its data would be lost", () => {
    const log = importLog(nested, "id,colour,id\na,red,b\n");
    expect(log.records).toEqual([]);
    expect(log.problems.map((p) => [p.line, p.field])).toEqual([
      [1, "colour"],
      [1, "id"],
    ]);
    expect(log.problems[0]!.message).toMatch(/column 2 "colour" is not a field of the layout \(its fields: id, n, big/);
    expect(log.problems[1]!.message).toBe("column 3 repeats column 1");
  });

  test("rows of the wrong width, arrays with gaps or given twice, an unterminated quote", () => {
    const text = 'id,acc,acc[1],acc[2]\na,,,\nb,1\nc,,,5\nd,[1],2,\ne,notarray,,\n"f,,,\n';
    const log = importLog(nested, text);
    expect(log.records).toEqual([{ id: "a" }]);
    expect(log.problems.map(describeLogProblem)).toEqual([
      "line 3: has 2 cells; the header names 4 columns",
      "line 4, acc[0]: is empty while a later element has a value",
      "line 5, acc: is given both whole and element by element",
      'line 6, acc: "notarray" is not an array: write it as [1,2,3] or one column per element (acc[0], …)',
      'line 7: opens a quoted cell (") that is never closed',
    ]);
  });

  test("an empty log, or a header alone, is a problem, not an empty success", () => {
    expect(importLog(nested, "", "csv").problems.map(describeLogProblem)).toEqual([
      "line 1: the log holds no readings",
    ]);
    expect(importLog(nested, "id,n\n").problems).toHaveLength(1);
  });

  test("problems beyond the first MAX_LISTED are counted, not listed", () => {
    const text = ["id,n", ...Array.from({ length: MAX_LISTED + 7 }, () => "a,x")].join("\n");
    const log = importLog(nested, text);
    expect(log.problems).toHaveLength(MAX_LISTED);
    expect(log.problemsNotListed).toBe(7);
  });

  test("parseCsv keeps the line each row starts on across quoted newlines and blank lines", () => {
    expect(parseCsv('a,b\n\n"x\ny",2\nz,3').rows).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 3, cells: ["x\ny", "2"] },
      { line: 5, cells: ["z", "3"] },
    ]);
    expect(parseCsv("a\tb\n1\t2\n").separator).toBe("\t");
  });
});

describe("JSON Lines", () => {
  test("records as a device writes them; bad JSON, non-objects and unknown keys are named by line", () => {
    const text = [
      '{"id":"a","n":"7","big":9223372036854775807,"gps":{"lat":1.5,"at":"1970-01-01T00:00:01.5Z"}}',
      "",
      "{not json",
      "[1,2]",
      '{"id":"b","colour":"red"}',
      '{"id":"c","acc":[1,2,3,4]}',
    ].join("\n");
    expect(detectLogFormat(text)).toBe("jsonl");
    const log = importLog(nested, text);
    expect(log.records).toEqual([{ id: "a", n: 7, big: 9223372036854775807n, gps: { lat: 1.5, at: 1.5 } }]);
    expect(log.lines).toEqual([1]);
    expect(log.problems.map((p) => [p.line, p.field])).toEqual([
      [3, ""],
      [4, ""],
      [5, "colour"],
      [6, "acc"],
    ]);
    expect(log.problems[0]!.message).toMatch(/^is not JSON/);
    expect(log.problems[3]!.message).toBe("holds at most 3 elements, got 4");
  });
});

describe("ISO 8601 times", () => {
  test.each([
    ["2010-08-05T14:23:59Z", Date.parse("2010-08-05T14:23:59Z") / 1000],
    ["2010-08-05 14:23Z", Date.parse("2010-08-05T14:23:00Z") / 1000],
    ["2010-08-05T14:23:59.125-0230", Date.parse("2010-08-05T16:53:59Z") / 1000 + 0.125],
  ])("%s", (text, seconds) => {
    expect(parseIsoTime(text)).toEqual({ ok: true, seconds });
  });

  test("the year 50 is the year 50, not 1950 (Date.UTC's reading of years below 100)", () => {
    const t = parseIsoTime("0050-03-01T00:00:00Z");
    expect(t?.ok && new Date(t.seconds * 1000).toISOString()).toBe("0050-03-01T00:00:00.000Z");
  });

  test("dates not of the calendar and texts that are no date-time", () => {
    expect(parseIsoTime("2023-02-29T00:00:00Z")).toEqual({
      ok: false,
      reason: '"2023-02-29T00:00:00Z" is not a date and time of the calendar',
    });
    expect(parseIsoTime("2023-01-01T24:00:00Z")?.ok).toBe(false);
    expect(parseIsoTime("1281018239")).toBeUndefined();
  });
});
