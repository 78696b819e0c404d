// LoRa time on air, exactly as Semtech gives it (AN1200.13 "LoRa Modem Designer's Guide"; SX1276 datasheet §4.1.1.6-7).

export interface LoraFrame {
  sf: number;
  bandwidthHz: number;
  /** 1–4 for coding rates 4/5 … 4/8 */
  codingRate: 1 | 2 | 3 | 4;
  preamble: number;
  explicitHeader: boolean;
  crc: boolean;
  lowDataRateOptimize: boolean;
  /** PHY payload in bytes (for LoRaWAN: FRMPayload + 13 bytes of framing) */
  payloadBytes: number;
}

/** Seconds one symbol lasts: 2^SF / BW. */
export function loraSymbolSeconds(sf: number, bandwidthHz: number): number {
  return 2 ** sf / bandwidthHz;
}

/**
 * Low data rate optimisation is mandated when a symbol lasts more than 16 ms (SX1276 datasheet): SF11 and SF12 at
 * 125 kHz, SF12 at 250 kHz. LoRaWAN regional parameters set it the same way.
 */
export function loraNeedsLowDataRateOptimize(sf: number, bandwidthHz: number): boolean {
  return loraSymbolSeconds(sf, bandwidthHz) > 0.016;
}

/** Symbols after the preamble: 8 + max(ceil((8PL − 4SF + 28 + 16CRC − 20IH) / (4(SF − 2DE))) × (CR + 4), 0). */
export function loraPayloadSymbols(p: LoraFrame): number {
  const numerator = 8 * p.payloadBytes - 4 * p.sf + 28 + (p.crc ? 16 : 0) - (p.explicitHeader ? 0 : 20);
  const denominator = 4 * (p.sf - (p.lowDataRateOptimize ? 2 : 0));
  return 8 + Math.max(Math.ceil(numerator / denominator) * (p.codingRate + 4), 0);
}

/** Seconds on air: (preamble + 4.25) symbols plus the payload's symbols. */
export function loraTimeOnAir(p: LoraFrame): number {
  const ts = loraSymbolSeconds(p.sf, p.bandwidthHz);
  return (p.preamble + 4.25) * ts + loraPayloadSymbols(p) * ts;
}
