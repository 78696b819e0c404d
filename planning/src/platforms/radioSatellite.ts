// Radio models of the satellite modems: Astrocast's Astronode S (fragments in bursts) and Iridium SBD 9602/9603
// (one session per message). Sources and the reasoning behind each estimate: docs/budget.md.
import { cited, estimate, type Cited } from "./cited.ts";

const ASTRO_DOCS = "Astrocast, Astronode S documentation";
const ASTRO_BEST_PRACTICES = "Astrocast, Astronode S documentation, Payload Best Practices";
const IRIDIUM_9602 = "Iridium, 9602 SBD transceiver developer's guide";

export interface AstrocastRadio {
  kind: "astrocast";
  maxPayloadBytes: Cited;
  fragmentBytes: Cited;
  fragmentOverheadBytes: Cited;
  fragmentsPerBurst: Cited;
  fragmentS: Cited;
  supplyVolts: Cited;
  txMa: Cited;
  burstRxS: Cited;
  rxMa: Cited;
  burstWaitS: Cited;
  waitMa: Cited;
  sleepUa: Cited;
}

export const ASTROCAST_RADIO: AstrocastRadio = {
  kind: "astrocast",
  maxPayloadBytes: cited(160, "B", ASTRO_DOCS, "published uplink limit (+8 optional geolocation bytes)"),
  fragmentBytes: cited(
    18,
    "B",
    ASTRO_BEST_PRACTICES,
    "fitted to the published examples (39 B→3, 43 and 57 B→4, 94 B→2 bursts)",
    true,
  ),
  fragmentOverheadBytes: cited(
    15,
    "B",
    ASTRO_BEST_PRACTICES,
    "fitted with the fragment size: f fragments carry 18f − 15 B",
    true,
  ),
  fragmentsPerBurst: cited(
    6,
    "fragments",
    ASTRO_BEST_PRACTICES,
    "an 80 B message is one burst of 6 fragments; 94 B needs a second",
    true,
  ),
  fragmentS: estimate(0.4, "s", "transmit time of one fragment"),
  supplyVolts: estimate(3.3, "V", "nominal supply", "Astrocast, Astronode S datasheet"),
  txMa: estimate(300, "mA", "L-band transmit burst"),
  burstRxS: estimate(2, "s", "satellite signalling and the ACK, per burst"),
  rxMa: estimate(25, "mA", "receiving"),
  burstWaitS: estimate(10, "s", "satellite detection before a burst"),
  waitMa: estimate(10, "mA", "powered, searching"),
  sleepUa: cited(
    3.9,
    "µA",
    `${ASTRO_DOCS}, Sleep and Low Power`,
    "sleep mode at 25 °C (an earlier revision said 4.4 µA)",
  ),
};

export interface IridiumRadio {
  kind: "iridium-sbd";
  maxPayloadBytes: Cited;
  supplyVolts: Cited;
  sessionMa: Cited;
  idleMa: Cited;
  offUa: Cited;
  sessionFixedS: Cited;
  bitRate: Cited;
  waitS: Cited;
}

export const IRIDIUM_SBD_RADIO: IridiumRadio = {
  kind: "iridium-sbd",
  maxPayloadBytes: cited(340, "B", IRIDIUM_9602, "largest mobile-originated SBD message"),
  supplyVolts: cited(5, "V", IRIDIUM_9602, "nominal supply"),
  sessionMa: cited(190, "mA", IRIDIUM_9602, "average during an SBD session (peaks of 1.5 A)"),
  idleMa: cited(34, "mA", IRIDIUM_9602, "average idle, as we read it", true),
  offUa: cited(20, "µA", IRIDIUM_9602, "module off through ON/OFF, as we read it", true),
  sessionFixedS: estimate(8, "s", "SBDIX handshake in good view of the sky"),
  bitRate: cited(2400, "bit/s", "Iridium, SBD service description", "channel data rate"),
  waitS: estimate(5, "s", "power-up and registration before the session"),
};
