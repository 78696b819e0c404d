// The buffer's tables. Append-only migrations, like the projects database: a shipped step never changes.

export const BUFFER_MIGRATIONS: readonly string[] = [
  `CREATE TABLE records (
     seq INTEGER PRIMARY KEY,
     message_id TEXT NOT NULL UNIQUE,
     received_at INTEGER NOT NULL,
     layout TEXT NOT NULL,
     format TEXT NOT NULL,
     device TEXT NOT NULL,
     size INTEGER NOT NULL,
     json_size INTEGER NOT NULL,
     con TEXT NOT NULL,
     forwarded_at INTEGER
   );
   CREATE INDEX records_pending ON records (seq) WHERE forwarded_at IS NULL;
   CREATE TABLE devices (
     device TEXT PRIMARY KEY,
     last_seq INTEGER NOT NULL,
     count INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE dead_letters (
     id INTEGER PRIMARY KEY,
     received_at INTEGER NOT NULL,
     layout TEXT NOT NULL,
     format TEXT NOT NULL,
     message_id TEXT,
     size INTEGER NOT NULL,
     reason TEXT NOT NULL,
     body BLOB NOT NULL
   );
   CREATE TABLE counters (
     name TEXT PRIMARY KEY,
     value REAL NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE status (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // the cin's resource name when it is not the message id (a device's id behind a ULID); NULL: message id
  `ALTER TABLE records ADD COLUMN rn TEXT;`,
  // a record the CSE refused for good (a 4xx other than a conflict or a missing parent) waits here,
  // with the CSE's answer, until someone retries it: never dropped, never blocking the others.
  // Pending = neither forwarded nor refused; the device index lets each container be read alone.
  `ALTER TABLE records ADD COLUMN refused_at INTEGER;
   ALTER TABLE records ADD COLUMN refusal TEXT;
   DROP INDEX records_pending;
   CREATE INDEX records_pending ON records (seq) WHERE forwarded_at IS NULL AND refused_at IS NULL;
   CREATE INDEX records_pending_device ON records (device, seq) WHERE forwarded_at IS NULL AND refused_at IS NULL;
   CREATE INDEX records_refused ON records (seq) WHERE refused_at IS NOT NULL;`,
];

/** Monotonic totals kept in the same transactions as the rows they count. */
export const COUNTERS = [
  "accepted",
  "duplicates",
  "rejected",
  "dead_letters",
  "ratio_sum",
  "forwarded",
  "forward_failures",
  /** records in the refused state now (up on a refusal, down on a retry) */
  "refused",
  /** instances re-created under the next name after a conflict whose read-back was not ours */
  "repairs",
  /** conflicts on a resend counted as delivered after the instance read back equal */
  "conflicts_verified",
] as const;
export type CounterName = (typeof COUNTERS)[number];
export type Counters = Record<CounterName, number>;

export const bufferFileName = (index: number) => `buffer-${index}.sqlite`;
export const BUFFER_FILE = /^buffer-(\d+)\.sqlite$/;
