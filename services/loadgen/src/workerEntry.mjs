// Worker threads do not inherit the tsx loader on Node 20: register it here, then load the TypeScript.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
