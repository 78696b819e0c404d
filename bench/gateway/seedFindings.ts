// Seeds 002/004 (Paliy, Bidochka, "Comparative analysis of SBE and Protobuf methods in high-load IoT
// gateways", Measuring and Computing Devices in Technological Processes 2026 (2) 337–344,
// doi:10.31891/2219-9365-2026-86-40), Tables 1–4: a Go receiver on a Raspberry Pi 5 (4 × Cortex-A76
// 2.4 GHz), messages over a socket, means of repeated runs. Published figures, not measurements here.

export interface SeedCell {
  cpuPercent: number;
  ms: number;
}

/** [max payload][format][batch] */
export const SEED_TABLES: Readonly<
  Record<100 | 1000, Readonly<Record<"protobuf" | "sbe", Readonly<Record<number, SeedCell>>>>>
> = {
  100: {
    // Table 1
    protobuf: {
      100: { cpuPercent: 0.2, ms: 0.325295 },
      1000: { cpuPercent: 0.9, ms: 1.3548 },
      10000: { cpuPercent: 7.4, ms: 9.27336 },
      100000: { cpuPercent: 33.0, ms: 25.285391 },
    },
    // Table 2
    sbe: {
      100: { cpuPercent: 0.4, ms: 0.146415 },
      1000: { cpuPercent: 1.2, ms: 0.832175 },
      10000: { cpuPercent: 7.6, ms: 4.786432 },
      100000: { cpuPercent: 34.3, ms: 13.185367 },
    },
  },
  1000: {
    // Table 3
    protobuf: {
      100: { cpuPercent: 0.5, ms: 0.840918 },
      1000: { cpuPercent: 2.6, ms: 4.854998 },
      10000: { cpuPercent: 12.7, ms: 10.732454 },
      100000: { cpuPercent: 67.1, ms: 52.714018 },
    },
    // Table 4
    sbe: {
      100: { cpuPercent: 0.5, ms: 0.461458 },
      1000: { cpuPercent: 2.3, ms: 2.396256 },
      10000: { cpuPercent: 13.4, ms: 5.576806 },
      100000: { cpuPercent: 95.7, ms: 78.073025 },
    },
  },
};

export const SEED_BATCHES = [100, 1000, 10000, 100000] as const;
