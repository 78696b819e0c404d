// Where the stack keeps what on disk, below the app's data directory.
import path from "node:path";

export const STACK_DIR = "stack";
/** where the stack's decoder keeps its buffers and its credentials file (keys.json) */
export const decoderDataDir = (stackDir: string) => path.join(stackDir, "decoder");
/** where acmecse is installed on first use when the repository's .venv does not have it */
export const ACME_VENV_DIR = "acme-venv";
