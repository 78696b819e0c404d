// Radios that send a message as one or more frames of payload + fixed overhead at a fixed bit rate: Sigfox (three
// repetitions), Kinéis, ORBCOMM OG2, and the cellular IoT bearers (NB-IoT / LTE-M, on land and through satellites,
// where the transport's headers are part of the bytes handed in: planning/src/transport). Most of these constants are
// estimates: the datasheets of the modules vary and none is the platform's (docs/budget.md).
import { cited, estimate, type Cited } from "./cited.ts";

export interface FramedRadio {
  kind: "framed";
  /** which platform family, for the UI's words */
  family: "sigfox" | "kineis" | "orbcomm" | "cellular";
  /** undefined on an IP bearer: the stack above sets the size */
  maxPayloadBytes: Cited;
  overheadBytes: Cited;
  bitRate: Cited;
  /** times each message is sent (Sigfox: 3 frames on different frequencies) */
  repetitions: Cited;
  /** between two repetitions, at the wait current */
  gapS: Cited;
  supplyVolts: Cited;
  txMa: Cited;
  rxS: Cited;
  rxMa: Cited;
  /** before the transmission (satellite acquisition, network attach / RRC connection) */
  waitS: Cited;
  waitMa: Cited;
  sleepUa: Cited;
  dutyCycle?: Cited;
  maxMessagesPerDay?: Cited;
}

const SIGFOX = "Sigfox, technical overview";
const NO_REPEAT = cited(1, "frames", "—", "one transmission per message");
const NONE = (what: string) => cited(0, "s", "—", what);

export const SIGFOX_RADIO: FramedRadio = {
  kind: "framed",
  family: "sigfox",
  maxPayloadBytes: cited(12, "B", SIGFOX, "largest uplink payload"),
  overheadBytes: estimate(
    14,
    "B",
    "preamble, frame type, sequence number, device id, authentication and CRC of a frame",
  ),
  bitRate: cited(100, "bit/s", SIGFOX, "uplink rate in RC1 (Europe)"),
  repetitions: cited(3, "frames", SIGFOX, "each message is sent three times on different frequencies"),
  gapS: estimate(0.5, "s", "between two frames (the radio configuration allows 0–2 s)"),
  supplyVolts: estimate(3.3, "V", "module supply"),
  txMa: estimate(45, "mA", "a 14 dBm Sigfox module transmitting"),
  rxS: NONE("no downlink asked"),
  rxMa: estimate(0, "mA", "no downlink asked"),
  waitS: NONE("no wait before the frames"),
  waitMa: estimate(1, "mA", "module idle between frames"),
  sleepUa: estimate(1.5, "µA", "module asleep"),
  dutyCycle: cited(0.01, "", "ETSI EN 300 220 (868 MHz band), as Sigfox RC1 applies it", "1 % of the time"),
  maxMessagesPerDay: cited(140, "messages/day", SIGFOX, "uplinks a day of the subscription"),
};

const kineis = (maxPayload: number, basis: string): FramedRadio => ({
  kind: "framed",
  family: "kineis",
  maxPayloadBytes: cited(maxPayload, "B", "Kumar et al. 2026, Table 1", basis),
  overheadBytes: estimate(8, "B", "synchronisation, identifier and CRC of an uplink"),
  bitRate: estimate(400, "bit/s", "Argos-4 class uplink"),
  repetitions: estimate(1, "frames", "one transmission per message (devices may repeat to meet a satellite)"),
  gapS: NONE("one frame"),
  supplyVolts: estimate(3.3, "V", "module supply"),
  txMa: estimate(450, "mA", "a 27 dBm satellite uplink"),
  rxS: NONE("no downlink asked"),
  rxMa: estimate(0, "mA", "no downlink asked"),
  waitS: estimate(1, "s", "wake and synthesiser lock"),
  waitMa: estimate(10, "mA", "module awake"),
  sleepUa: estimate(5, "µA", "module asleep"),
});

export const KINEIS_RADIO = kineis(30, "largest message");
export const KINEIS_STANDARD_RADIO = kineis(19, "standard message");

export const ORBCOMM_RADIO: FramedRadio = {
  kind: "framed",
  family: "orbcomm",
  maxPayloadBytes: cited(250, "B", "Kumar et al. 2026, Table 1", "typical largest message (OG1/OG2)"),
  overheadBytes: estimate(10, "B", "link framing of a message"),
  bitRate: estimate(2400, "bit/s", "VHF uplink"),
  repetitions: NO_REPEAT,
  gapS: NONE("one frame"),
  supplyVolts: estimate(12, "V", "terminal supply"),
  txMa: estimate(1000, "mA", "a VHF terminal transmitting"),
  rxS: estimate(5, "s", "satellite acknowledgement"),
  rxMa: estimate(80, "mA", "receiving"),
  waitS: estimate(30, "s", "acquiring a satellite"),
  waitMa: estimate(80, "mA", "receiving while acquiring"),
  sleepUa: estimate(100, "µA", "terminal asleep"),
};

const cellular = (ntn: boolean): FramedRadio => ({
  kind: "framed",
  family: "cellular",
  maxPayloadBytes: cited(1500, "B", "IP over NB-IoT / LTE-M", "largest datagram the budget takes (an IP MTU)", true),
  overheadBytes: estimate(0, "B", "the transport's headers are in the bytes handed in (planning/src/transport)"),
  bitRate: estimate(
    ntn ? 5000 : 20000,
    "bit/s",
    ntn ? "NB-IoT uplink through a satellite" : "NB-IoT uplink, good coverage",
  ),
  repetitions: NO_REPEAT,
  gapS: NONE("one transmission"),
  supplyVolts: estimate(3.6, "V", "module supply"),
  txMa: estimate(220, "mA", "power class 3 (23 dBm) transmitting"),
  rxS: estimate(ntn ? 20 : 10, "s", "connected until the network releases (RRC inactivity)"),
  rxMa: estimate(15, "mA", "connected-mode DRX"),
  waitS: estimate(
    ntn ? 5 : 1.5,
    "s",
    ntn ? "random access and connection over a satellite's delay" : "random access and RRC connection",
  ),
  waitMa: estimate(60, "mA", "random access and connection"),
  sleepUa: estimate(3, "µA", "PSM (power saving mode) floor"),
});

export const CELLULAR_TN_RADIO = cellular(false);
export const CELLULAR_NTN_RADIO = cellular(true);
