// Compares what a stack's decoder acknowledged with what a CSE (a real Mobius, ACME, or the embedded
// one) holds, record by record, through the CSE's own HTTP API only: the decoder's buffer files are read
// (read-only) for what was acknowledged; the CSE is asked for its containers, each container's
// instances (discovery), each instance (its `con` and labels) and each container's `la`. It never uses
// the forwarder's code, so what it reports is what a reader of that CSE sees.
//
// node --import tsx scripts/peers/cse_check.ts --data-dir <stack data dir> --cse http://127.0.0.1:7579/Mobius \
//     [--ae decoder] [--origin Sponde] [--json]
//
// Prints, and exits 1 unless all hold: every acknowledged record is one instance (matched by the name
// the decoder stored, or its repair name `<name>.rN` when the decoder re-created it), with `con` equal to
// the stored record as a JSON value (Mobius gives a JSON string back as the object); no instance without
// a record; each container's `la` is its newest record; a device's message id rides in a `msgid:` label.
import { readdirSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import Database from "better-sqlite3";

const { values: o } = parseArgs({
  options: {
    "data-dir": { type: "string" },
    cse: { type: "string" },
    ae: { type: "string", default: "decoder" },
    origin: { type: "string", default: "Sponde" },
    json: { type: "boolean", default: false },
  },
});
if (!o["data-dir"] || !o.cse) {
  process.stderr.write("needs --data-dir DIR (the stack's data directory) --cse BASE_URL\n");
  process.exit(2);
}
const cse = o.cse.replace(/\/+$/, "");
const base = new URL(cse).pathname.replace(/^\//, "");

interface Row {
  seq: number;
  receivedAt: number;
  messageId: string;
  rn: string | null;
  device: string | null;
  con: string;
  forwardedAt: number | null;
  refusedAt: number | null;
}

/** every record of every buffer file below the data dir, by the name it has (or will have) in the CSE */
function acknowledged(dataDir: string): Row[] {
  const rows: Row[] = [];
  const dirs = [dataDir, path.join(dataDir, "stack/decoder")];
  for (const dir of dirs) {
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => /^buffer-\d+\.sqlite$/.test(f));
    } catch {
      continue;
    }
    for (const f of files) {
      const db = new Database(path.join(dir, f), { readonly: true, fileMustExist: true });
      try {
        rows.push(
          ...(db
            .prepare(
              "SELECT seq, received_at AS receivedAt, message_id AS messageId, rn, device, con, forwarded_at AS forwardedAt, refused_at AS refusedAt FROM records ORDER BY seq",
            )
            .all() as Row[]),
        );
      } finally {
        db.close();
      }
    }
  }
  return rows;
}

let ri = 0;
async function get(p: string): Promise<{ status: number; body: Record<string, unknown> }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await fetch(`${cse}${p}`, {
        headers: {
          "X-M2M-RI": `check-${++ri}`,
          "X-M2M-Origin": o.origin!,
          "X-M2M-RVI": "3",
          Accept: "application/json",
        },
      });
      const text = await r.text();
      return { status: r.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch (e) {
      // a Mobius whose workers crashed refuses connections: say so rather than count wrong
      if (attempt >= 2) throw new Error(`the CSE at ${cse} does not answer ${p}: ${(e as Error).message}`);
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
}

/** paths in a discovery answer, relative to the CSE base name (Mobius omits the leading `/`) */
function uril(body: Record<string, unknown>): string[] {
  const list = (body["m2m:uril"] as string[] | undefined) ?? [];
  return list.map((x) => x.replace(/^\//, "").slice(base.length + 1));
}

/** a `con` as the JSON value it holds (Mobius returns a string that holds JSON as that object) */
function valueOf(con: unknown): unknown {
  if (typeof con !== "string") return con;
  try {
    return JSON.parse(con);
  } catch {
    return con;
  }
}

const rows = acknowledged(o["data-dir"]);
const byName = new Map<string, Row>();
for (const r of rows) byName.set(r.rn ?? r.messageId, r);

const containers = uril((await get(`/${o.ae}?fu=1&ty=3`)).body);
const problems: string[] = [];
const seen = new Map<string, { container: string; path: string }>();
let instances = 0;
let equal = 0;
let labelled = 0;
let repaired = 0;
let laRight = 0;
const newestOf = new Map<string, Row>();

for (const c of containers) {
  const paths = uril((await get(`/${c}?fu=1&ty=4`)).body);
  if (paths.length >= 2000) problems.push(`${c}: ${paths.length} instances, discovery's cap: raise the check`);
  for (const p of paths) {
    instances++;
    const { status, body } = await get(`/${p}`);
    const cin = body["m2m:cin"] as { rn: string; con: unknown; lbl?: string[] } | undefined;
    if (status !== 200 || !cin) {
      problems.push(`${p}: ${status} on retrieve`);
      continue;
    }
    const repair = /^(.*)\.r(\d)$/.exec(cin.rn);
    const row = byName.get(cin.rn) ?? (repair ? byName.get(repair[1]!) : undefined);
    if (!row) {
      problems.push(`${p}: an instance no acknowledged record has`);
      continue;
    }
    const name = row.rn ?? row.messageId;
    if (seen.has(name)) problems.push(`${p}: a second instance of record ${row.seq} (first ${seen.get(name)!.path})`);
    seen.set(name, { container: c, path: p });
    if (repair) repaired++;
    if (isDeepStrictEqual(valueOf(cin.con), JSON.parse(row.con))) equal++;
    else problems.push(`${p}: con differs from record ${row.seq}'s`);
    if (row.messageId !== name) {
      if (cin.lbl?.includes(`msgid:${row.messageId}`)) labelled++;
      else problems.push(`${p}: no msgid:${row.messageId} label`);
    }
    // the newest by arrival: replicas number their buffers' records apart, so seq says nothing across them
    const newest = newestOf.get(c);
    if (
      !newest ||
      row.receivedAt > newest.receivedAt ||
      (row.receivedAt === newest.receivedAt && name > (newest.rn ?? newest.messageId))
    )
      newestOf.set(c, row);
  }
  const la = await get(`/${c}/la`);
  const laRn = (la.body["m2m:cin"] as { rn?: string } | undefined)?.rn;
  const newest = newestOf.get(c);
  if (!newest) continue;
  const newestName = newest.rn ?? newest.messageId;
  if (laRn === newestName || laRn?.startsWith(`${newestName}.r`)) laRight++;
  else problems.push(`${c}: la is ${laRn ?? `HTTP ${la.status}`}, the newest record is ${newestName}`);
}

const delivered = rows.filter((r) => r.forwardedAt !== null);
const missing = delivered.filter((r) => !seen.has(r.rn ?? r.messageId));
for (const r of missing.slice(0, 20))
  problems.push(`record ${r.seq} (${r.rn ?? r.messageId}) counted delivered, not in the CSE`);
const summary = {
  acknowledged: rows.length,
  delivered: delivered.length,
  pending: rows.filter((r) => r.forwardedAt === null && r.refusedAt === null).length,
  refused: rows.filter((r) => r.refusedAt !== null).length,
  containers: containers.length,
  instances,
  conEqual: equal,
  repairedNames: repaired,
  messageIdLabels: labelled,
  laNewest: `${laRight}/${newestOf.size}`,
  deliveredMissingInCse: missing.length,
  problems: problems.length,
};
if (o.json) process.stdout.write(`${JSON.stringify({ ...summary, problemList: problems }, null, 2)}\n`);
else {
  for (const [k, v] of Object.entries(summary)) process.stdout.write(`${k.padEnd(22)} ${v}\n`);
  for (const p of problems.slice(0, 40)) process.stdout.write(`  ${p}\n`);
}
process.exit(problems.length === 0 && instances === rows.length ? 0 : 1);
