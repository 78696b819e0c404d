// Runs sandboxed before the renderer; bundled to dist/app/preload.cjs.
import { contextBridge, ipcRenderer } from "electron";
import { exposeHostApi } from "./bridge.ts";

exposeHostApi(contextBridge, ipcRenderer);
