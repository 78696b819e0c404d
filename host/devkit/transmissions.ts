// Every payload the bench put on a module, in the projects database: what it was made from, its queue id,
// and when the satellite acknowledged it.
import type Database from "better-sqlite3";
import type { Transmission } from "../api/devkit.ts";

interface Row {
  id: number;
  project_id: string | null;
  layout_version: number | null;
  format: string | null;
  sample: number | null;
  seed: number | null;
  payload_hex: string;
  bytes: number;
  queue_id: number;
  port: string;
  status: Transmission["status"];
  enqueued_at: string;
  acked_at: string | null;
}

const fromRow = (r: Row): Transmission => ({
  id: r.id,
  projectId: r.project_id,
  layoutVersion: r.layout_version,
  format: r.format,
  sample: r.sample,
  seed: r.seed,
  payloadHex: r.payload_hex,
  bytes: r.bytes,
  queueId: r.queue_id,
  port: r.port,
  status: r.status,
  enqueuedAt: r.enqueued_at,
  ackedAt: r.acked_at,
});

export interface NewTransmission {
  projectId: string | null;
  layoutVersion: number | null;
  format: string | null;
  sample: number | null;
  seed: number | null;
  payloadHex: string;
  bytes: number;
  queueId: number;
  port: string;
}

export class TransmissionStore {
  private readonly q;

  constructor(db: Database.Database) {
    this.q = {
      insert: db.prepare(
        "INSERT INTO devkit_transmissions (project_id, layout_version, format, sample, seed, payload_hex, bytes, queue_id, port, status, enqueued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)",
      ),
      byId: db.prepare("SELECT * FROM devkit_transmissions WHERE id = ?"),
      // the newest queued one with that id: ids are reused once a payload has left the queue
      open: db.prepare(
        "SELECT * FROM devkit_transmissions WHERE port = ? AND queue_id = ? AND status = 'queued' ORDER BY id DESC LIMIT 1",
      ),
      setStatus: db.prepare(
        "UPDATE devkit_transmissions SET status = ?, acked_at = coalesce(?, acked_at) WHERE id = ?",
      ),
      openOnPort: db.prepare("SELECT * FROM devkit_transmissions WHERE port = ? AND status = 'queued' ORDER BY id"),
      freeAll: db.prepare("UPDATE devkit_transmissions SET status = 'freed' WHERE port = ? AND status = 'queued'"),
      list: db.prepare("SELECT * FROM devkit_transmissions ORDER BY id DESC LIMIT ?"),
      listProject: db.prepare("SELECT * FROM devkit_transmissions WHERE project_id = ? ORDER BY id DESC LIMIT ?"),
    };
  }

  add(t: NewTransmission, at: string): Transmission {
    const info = this.q.insert.run(
      t.projectId,
      t.layoutVersion,
      t.format,
      t.sample,
      t.seed,
      t.payloadHex,
      t.bytes,
      t.queueId,
      t.port,
      at,
    );
    return fromRow(this.q.byId.get(info.lastInsertRowid) as Row);
  }

  /** the transmission waiting in the module's queue under `queueId`, if we put it there */
  openByQueueId(port: string, queueId: number): Transmission | null {
    const r = this.q.open.get(port, queueId) as Row | undefined;
    return r ? fromRow(r) : null;
  }

  setStatus(id: number, status: Transmission["status"], ackedAt: string | null = null): Transmission {
    this.q.setStatus.run(status, ackedAt, id);
    return fromRow(this.q.byId.get(id) as Row);
  }

  openOnPort(port: string): Transmission[] {
    return (this.q.openOnPort.all(port) as Row[]).map(fromRow);
  }

  freeAll(port: string): void {
    this.q.freeAll.run(port);
  }

  list(limit: number, projectId?: string): Transmission[] {
    const rows = projectId ? this.q.listProject.all(projectId, limit) : this.q.list.all(limit);
    return (rows as Row[]).map(fromRow);
  }
}
