// Reliable senders over the random-access return link, one per data exchange: CoAP confirmable
// with a NSTART window (stop-and-wait at 1, Go-Back-N above, exponential backoff; RFC 7252 §4.2,
// §4.7) and TCP NewReno (RFC 5681 slow start / congestion avoidance / fast retransmit, RFC 6582
// NewReno recovery, RFC 6298 timer). Packets are counted in whole net slots: every packet is one
// IP datagram that fits the slot.
import type { Prng } from "#codecs";

/** What a flow needs from the simulator: a terminal queue, timers and the clock. */
export interface FlowHost {
  now(): number;
  enqueue(packet: Packet): void;
  at(time: number, run: () => void): void;
  /** runs `run` at the sender when a message the receiver sends now gets there (error-free forward link) */
  back(run: () => void): void;
  rng: Prng;
}

export interface Packet {
  flow: Flow;
  /** segment number; −1 is a TCP SYN */
  seq: number;
}

export interface Flow {
  readonly id: number;
  readonly arrival: number;
  /** application bytes the exchange carries */
  readonly appBytes: number;
  /** packets the exchange needs without retransmissions */
  readonly packets: number;
  /** when the receiver held every byte, or undefined while running */
  completedAt: number | undefined;
  /** the sender gave up (CoAP MAX_RETRANSMIT) */
  failed: boolean;
  start(): void;
  /** at the receiver: a packet came through the channel; returns application bytes newly delivered in order */
  receive(seq: number): number;
  /** at the sender: the receiver's cumulative acknowledgement (next expected segment) */
  acknowledge(next: number): void;
  /** the terminal put the packet on the channel */
  onAir(seq: number): void;
}

export interface CoapTiming {
  /** RFC 7252 ACK_TIMEOUT, s */
  ackTimeout: number;
  /** RFC 7252 ACK_RANDOM_FACTOR */
  ackRandomFactor: number;
  /** retransmission timeouts double at most this many times */
  maxBackoffExponent: number;
  /** RFC 7252 MAX_RETRANSMIT: the exchange is given up after this many timeouts in a row (Infinity: never, as seed 003 delivers everything) */
  maxRetransmit: number;
}

export class CoapFlow implements Flow {
  completedAt: number | undefined;
  failed = false;
  /** timeouts since the window last moved */
  private timeoutsInARow = 0;
  readonly packets: number;
  private base = 0;
  private next = 0;
  private expected = 0;
  private backoff = 0;
  private timerGen = 0;
  private initialTimeout: number;

  constructor(
    readonly id: number,
    readonly arrival: number,
    readonly appBytes: number,
    private readonly payloadPerPacket: number,
    private readonly singlePacketBytes: number,
    private readonly window: number,
    private readonly timing: CoapTiming,
    private readonly host: FlowHost,
  ) {
    // a message that fits one datagram without the Block option is sent whole
    this.packets = appBytes <= singlePacketBytes ? 1 : Math.ceil(appBytes / payloadPerPacket);
    this.initialTimeout = this.drawTimeout();
  }

  private drawTimeout(): number {
    const t = this.timing;
    return t.ackTimeout * (1 + (t.ackRandomFactor - 1) * this.host.rng.next());
  }

  start(): void {
    this.fill();
  }

  /** highest message of the current pass that went on air, −1 for none */
  private lastOnAir = -1;

  /**
   * The proxy sits at the terminal (seed 003 Fig. 2), so a message's timer starts when the terminal
   * sends it, not while it waits for a slot behind other exchanges.
   */
  onAir(seq: number): void {
    if (seq > this.lastOnAir) this.lastOnAir = seq;
    if (seq === this.base && this.base < this.packets) this.arm();
  }

  private fill(): void {
    while (this.next < this.base + this.window && this.next < this.packets)
      this.host.enqueue({ flow: this, seq: this.next++ });
  }

  private arm(): void {
    const gen = ++this.timerGen;
    const timeout = this.initialTimeout * 2 ** Math.min(this.backoff, this.timing.maxBackoffExponent);
    this.host.at(this.host.now() + timeout, () => {
      if (gen !== this.timerGen || this.base >= this.packets) return;
      if (++this.timeoutsInARow > this.timing.maxRetransmit) {
        this.failed = true;
        return;
      }
      // Go-Back-N: everything from the oldest unacknowledged message is sent again
      this.backoff++;
      this.next = this.base;
      this.lastOnAir = this.base - 1;
      this.fill();
    });
  }

  private ackBack(next: number): void {
    this.host.back(() => this.acknowledge(next));
  }

  receive(seq: number): number {
    if (seq !== this.expected) {
      // Go-Back-N receiver keeps only the next in order and repeats where it stands
      this.ackBack(this.expected);
      return 0;
    }
    this.expected++;
    this.ackBack(this.expected);
    if (this.expected === this.packets) this.completedAt = this.host.now();
    if (this.packets === 1) return this.appBytes;
    return seq === this.packets - 1 ? this.appBytes - seq * this.payloadPerPacket : this.payloadPerPacket;
  }

  acknowledge(next: number): void {
    if (next <= this.base) return;
    this.base = next;
    this.timeoutsInARow = 0;
    // the backed-off timeout is kept for the rest of the burst (Karn): its later messages wait in
    // the same terminal queue that made the earlier ones late
    this.initialTimeout = this.drawTimeout();
    this.timerGen++;
    if (this.base >= this.packets) return;
    if (this.base <= this.lastOnAir) this.arm();
    this.fill();
  }
}

export interface TcpTiming {
  /** initial congestion window, segments */
  initialWindow: number;
  /** RFC 6298 lower bound of the retransmission timeout, s */
  minRto: number;
  /** timeout before the first RTT sample, s */
  initialRto: number;
  /** SYN retransmission timeout, s */
  synTimeout: number;
  maxRto: number;
  /** receiver acknowledges every this many in-order segments (ns-3 DelAckCount) */
  delayedAckCount: number;
  /** …or this long after the first unacknowledged one, s */
  delayedAckTimeout: number;
}

export class TcpNewRenoFlow implements Flow {
  completedAt: number | undefined;
  /** TCP keeps retrying within the simulated time */
  readonly failed = false;
  readonly packets: number;
  private established = false;
  private synBackoff = 0;
  private cwnd: number;
  private ssthresh = Number.POSITIVE_INFINITY;
  private nextSeq = 0;
  private sndUna = 0;
  private highestSent = 0;
  private dupAcks = 0;
  private inRecovery = false;
  private recover = 0;
  private srtt: number | undefined;
  private rttvar = 0;
  private rto: number;
  private timed: { seq: number; sent: number } | undefined;
  private timerGen = 0;
  private expected = 0;
  private readonly outOfOrder = new Set<number>();
  private unackedSegments = 0;
  private delayedAckGen = 0;

  private readonly plan: MqttSegmentPlan;
  /** messages the broker acknowledged (PUBACK) */
  private pubacked = 0;
  private delivered = 0;

  constructor(
    readonly id: number,
    readonly arrival: number,
    readonly appBytes: number,
    mqtt: MqttSession,
    private readonly mss: number,
    private readonly timing: TcpTiming,
    private readonly host: FlowHost,
  ) {
    this.plan = new MqttSegmentPlan(appBytes, mqtt, mss);
    this.inflight = mqtt.inflight;
    this.packets = this.plan.segments;
    this.cwnd = timing.initialWindow;
    this.rto = timing.initialRto;
  }

  private readonly inflight: number;

  /** segments the application has written: CONNECT, then messages while fewer than `inflight` await their PUBACK */
  private released(): number {
    const lastMessage = Math.min(this.pubacked + this.inflight, this.plan.messages) - 1;
    return lastMessage < 0 ? 1 : this.plan.lastSegmentOf(lastMessage) + 1;
  }

  start(): void {
    this.sendSyn();
  }

  /** TCP runs in the device behind the terminal: its timers already started when it sent */
  onAir(): void {}

  private sendSyn(): void {
    if (this.established) return;
    this.host.enqueue({ flow: this, seq: -1 });
    const timeout = this.timing.synTimeout * 2 ** this.synBackoff++;
    this.host.at(this.host.now() + timeout, () => this.sendSyn());
  }

  private flight(): number {
    return this.nextSeq - this.sndUna;
  }

  private trySend(): void {
    const limit = Math.min(this.packets, this.released());
    while (this.nextSeq < limit && this.nextSeq < this.sndUna + Math.floor(this.cwnd)) this.transmit(this.nextSeq++);
  }

  private transmit(seq: number): void {
    if (seq >= this.highestSent) {
      this.highestSent = seq + 1;
      // Karn: time only segments sent once, one at a time
      if (this.timed === undefined) this.timed = { seq, sent: this.host.now() };
    } else if (this.timed !== undefined && this.timed.seq === seq) this.timed = undefined;
    this.host.enqueue({ flow: this, seq });
    if (this.flight() === 1 || seq === this.sndUna) this.armRto();
  }

  private armRto(): void {
    const gen = ++this.timerGen;
    this.host.at(this.host.now() + this.rto, () => {
      if (gen !== this.timerGen || this.sndUna >= this.packets) return;
      // RFC 5681 §3.1 eq. 4 and RFC 6298 §5.5–5.7
      this.ssthresh = Math.max(this.flight() / 2, 2);
      this.cwnd = 1;
      this.inRecovery = false;
      this.dupAcks = 0;
      this.rto = Math.min(this.rto * 2, this.timing.maxRto);
      this.timed = undefined;
      this.nextSeq = this.sndUna;
      this.transmit(this.nextSeq++);
      this.armRto();
    });
  }

  private ackBack(next: number): void {
    this.host.back(() => this.acknowledge(next));
  }

  receive(seq: number): number {
    if (seq === -1) {
      this.ackBack(-1);
      return 0;
    }
    if (seq !== this.expected) {
      // out of order or duplicate: acknowledge at once (RFC 5681 §4.2), the sender counts dupacks
      if (seq > this.expected) this.outOfOrder.add(seq);
      this.ackNow();
      return 0;
    }
    this.expected++;
    const filledHole = this.outOfOrder.size > 0;
    while (this.outOfOrder.delete(this.expected)) this.expected++;
    if (filledHole || ++this.unackedSegments >= this.timing.delayedAckCount) this.ackNow();
    else {
      const gen = ++this.delayedAckGen;
      this.host.at(this.host.now() + this.timing.delayedAckTimeout, () => {
        if (gen === this.delayedAckGen && this.unackedSegments > 0) this.ackNow();
      });
    }
    // messages whose last segment is now in order reach the broker, which answers PUBACK
    const complete = this.plan.messagesCompleteBefore(this.expected);
    let bytes = 0;
    for (let m = this.delivered; m < complete; m++) bytes += this.plan.messageBytes(m);
    if (complete > this.delivered) {
      this.delivered = complete;
      this.host.back(() => this.onPuback(complete));
    }
    if (this.expected >= this.packets) this.completedAt = this.host.now();
    return bytes;
  }

  /** the SYN-ACK, or a cumulative ACK */
  acknowledge(next: number): void {
    if (next === -1) {
      if (this.established) return;
      this.established = true;
      this.trySend();
      return;
    }
    if (next > this.sndUna) this.onNewAck(next);
    else if (next === this.sndUna && this.flight() > 0) this.onDupAck();
  }

  private onNewAck(next: number): void {
    const acked = next - this.sndUna;
    if (this.timed !== undefined && next > this.timed.seq) {
      this.sampleRtt(this.host.now() - this.timed.sent);
      this.timed = undefined;
    }
    if (this.inRecovery) {
      if (next >= this.recover) {
        // full acknowledgement (RFC 6582 §3.2 step 3)
        this.inRecovery = false;
        this.cwnd = this.ssthresh;
      } else {
        // partial acknowledgement: retransmit the next hole, deflate by what was acked
        this.sndUna = next;
        this.transmit(next);
        this.cwnd = Math.max(this.cwnd - acked + 1, 1);
        this.armRto();
        this.trySend();
        return;
      }
    } else if (this.cwnd < this.ssthresh) this.cwnd += 1;
    else this.cwnd += 1 / this.cwnd;
    this.sndUna = next;
    if (this.nextSeq < this.sndUna) this.nextSeq = this.sndUna;
    this.dupAcks = 0;
    if (this.sndUna >= this.packets) {
      this.timerGen++;
      return;
    }
    this.armRto();
    this.trySend();
  }

  private onDupAck(): void {
    this.dupAcks++;
    if (!this.inRecovery && this.dupAcks === 3) {
      // fast retransmit (RFC 5681 §3.2 step 2–4)
      this.ssthresh = Math.max(this.flight() / 2, 2);
      this.recover = this.nextSeq;
      this.inRecovery = true;
      this.transmit(this.sndUna);
      this.cwnd = this.ssthresh + 3;
    } else if (this.inRecovery) {
      this.cwnd += 1;
      this.trySend();
    }
  }

  private onPuback(count: number): void {
    if (count <= this.pubacked) return;
    this.pubacked = count;
    if (this.established) this.trySend();
  }

  private ackNow(): void {
    this.unackedSegments = 0;
    this.delayedAckGen++;
    this.ackBack(this.expected);
  }

  private sampleRtt(r: number): void {
    if (this.srtt === undefined) {
      this.srtt = r;
      this.rttvar = r / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - r);
      this.srtt = 0.875 * this.srtt + 0.125 * r;
    }
    this.rto = Math.min(Math.max(this.timing.minRto, this.srtt + 4 * this.rttvar), this.timing.maxRto);
  }
}

/** How an MQTT publisher sends an exchange: after CONNECT, QoS 1 PUBLISHes of at most `messageBytes` each. */
export interface MqttSession {
  connectBytes: number;
  /** PUBLISH fixed + variable header bytes per message */
  publishHeaderBytes: number;
  /** payload bytes per PUBLISH (the exchange is cut into messages of this size) */
  messageBytes: number;
  /** QoS 1 messages awaiting PUBACK at most (the client's in-flight window) */
  inflight: number;
}

/**
 * Segment layout of an exchange: CONNECT in segment 0, then each PUBLISH starts a new segment
 * (MQTT clients write each message with TCP_NODELAY) and spans ceil((header + payload) / MSS).
 */
export class MqttSegmentPlan {
  readonly messages: number;
  readonly segments: number;
  private readonly perMessage: number;
  private readonly lastBytes: number;
  private readonly lastSegments: number;

  constructor(
    private readonly appBytes: number,
    private readonly s: MqttSession,
    mss: number,
  ) {
    this.messages = Math.max(1, Math.ceil(appBytes / s.messageBytes));
    this.lastBytes = appBytes - (this.messages - 1) * s.messageBytes;
    this.perMessage = Math.ceil((s.publishHeaderBytes + s.messageBytes) / mss);
    this.lastSegments = Math.ceil((s.publishHeaderBytes + this.lastBytes) / mss);
    this.segments = Math.ceil(s.connectBytes / mss) + (this.messages - 1) * this.perMessage + this.lastSegments;
  }

  private get connectSegments(): number {
    return this.segments - (this.messages - 1) * this.perMessage - this.lastSegments;
  }

  lastSegmentOf(message: number): number {
    return message === this.messages - 1
      ? this.segments - 1
      : this.connectSegments + (message + 1) * this.perMessage - 1;
  }

  /** messages fully received when segments [0, inOrder) are */
  messagesCompleteBefore(inOrder: number): number {
    if (inOrder >= this.segments) return this.messages;
    return Math.max(0, Math.min(this.messages - 1, Math.floor((inOrder - this.connectSegments) / this.perMessage)));
  }

  messageBytes(message: number): number {
    return message === this.messages - 1 ? this.lastBytes : this.s.messageBytes;
  }
}
