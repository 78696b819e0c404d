// The module's error answers (opcode 0xFF, uint16 LE code) with the words a person needs to act on them.

export interface ErrorCodeInfo {
  code: number;
  name: string;
  meaning: string;
}

const LIST: ErrorCodeInfo[] = [
  {
    code: 0x0001,
    name: "CRC_NOT_VALID",
    meaning: "the module received the request with a wrong CRC (line noise or a framing bug)",
  },
  {
    code: 0x0011,
    name: "LENGTH_NOT_VALID",
    meaning: "wrong payload length for this command, or the frame was too long",
  },
  {
    code: 0x0121,
    name: "OPCODE_NOT_VALID",
    meaning: "the module does not know this command (Wi-Fi setup on a satellite module, or the dummy first request)",
  },
  { code: 0x0122, name: "ARG_NOT_VALID", meaning: "an argument is out of its allowed range" },
  { code: 0x0123, name: "FLASH_WRITING_FAILED", meaning: "the module could not write its flash memory" },
  {
    code: 0x0611,
    name: "FLASH_WRITING_FAILED",
    meaning: "the module could not write its flash memory (older firmware's code)",
  },
  { code: 0x0124, name: "DEVICE_BUSY", meaning: "the module is busy; try again shortly" },
  { code: 0x0601, name: "FORMAT_NOT_VALID", meaning: "a Wi-Fi field holds characters outside printable ASCII" },
  { code: 0x0701, name: "PERIOD_INVALID", meaning: "unknown satellite search period" },
  {
    code: 0x2501,
    name: "BUFFER_FULL",
    meaning: "the uplink queue already holds 8 payloads; dequeue or wait for a satellite pass",
  },
  { code: 0x2511, name: "DUPLICATE_ID", meaning: "a payload with this id is already queued" },
  { code: 0x2601, name: "BUFFER_EMPTY", meaning: "the uplink queue is empty" },
  { code: 0x3501, name: "INVALID_POS", meaning: "latitude must be within ±90° and longitude within ±180°" },
  { code: 0x4501, name: "NO_ACK", meaning: "no satellite acknowledgement is waiting" },
  { code: 0x4601, name: "NO_ACK_CLEAR", meaning: "there is no acknowledgement to clear" },
  { code: 0x4701, name: "NO_COMMAND", meaning: "no downlink command is waiting" },
  { code: 0x4801, name: "NO_COMMAND_CLEAR", meaning: "there is no downlink command to clear" },
  { code: 0x6101, name: "MAX_TX_REACHED", meaning: "test transmission refused: the maximum was reached" },
];

export const ERROR_CODES: ReadonlyMap<number, ErrorCodeInfo> = new Map(LIST.map((e) => [e.code, e]));

/** Named constants for the codes the client and simulator branch on. */
export const ERR = {
  CRC_NOT_VALID: 0x0001,
  LENGTH_NOT_VALID: 0x0011,
  OPCODE_NOT_VALID: 0x0121,
  ARG_NOT_VALID: 0x0122,
  FLASH_WRITING_FAILED: 0x0123,
  DEVICE_BUSY: 0x0124,
  FORMAT_NOT_VALID: 0x0601,
  PERIOD_INVALID: 0x0701,
  BUFFER_FULL: 0x2501,
  DUPLICATE_ID: 0x2511,
  BUFFER_EMPTY: 0x2601,
  INVALID_POS: 0x3501,
  NO_ACK: 0x4501,
  NO_ACK_CLEAR: 0x4601,
  NO_COMMAND: 0x4701,
  NO_COMMAND_CLEAR: 0x4801,
  MAX_TX_REACHED: 0x6101,
} as const;

export function errorInfo(code: number): ErrorCodeInfo {
  return (
    ERROR_CODES.get(code) ?? {
      code,
      name: `UNKNOWN_0x${code.toString(16).padStart(4, "0").toUpperCase()}`,
      meaning: "an error code this application does not know",
    }
  );
}

export function hex4(code: number): string {
  return `0x${code.toString(16).padStart(4, "0").toUpperCase()}`;
}
