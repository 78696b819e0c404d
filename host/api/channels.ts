// Names shared by the host and the Electron preload; kept apart from contract.ts so the preload
// bundle does not pull in zod.
export const IPC_CALL_CHANNEL = "host:call";
export const IPC_EVENT_CHANNEL = "host:event";
export const TOKEN_HEADER = "x-satpayload-token";
