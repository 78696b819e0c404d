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
] as const;
export type CounterName = (typeof COUNTERS)[number];
export type Counters = Record<CounterName, number>;

export const bufferFileName = (index: number) => `buffer-${index}.sqlite`;
export const BUFFER_FILE = /^buffer-(\d+)\.sqlite$/;
