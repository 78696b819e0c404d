// The runtime files every C export ships (satpayload_rt.h/.c, and satpayload_c.md that the generated
// comments refer to), with JavaScript's powers of ten
// filled in bit for bit so the C text timestamps round exactly like the studio's.
import { RUNTIME_C, RUNTIME_H } from "#firmware/templates/runtime.ts";
import type { ExportFile } from "../types.ts";
import { cHexDouble } from "./names.ts";
import { C_README, C_README_TEXT } from "./readme.ts";

const MAX_FRAC = 9;

export const RUNTIME_HEADER = "satpayload_rt.h";

export function runtimeFiles(dir = ""): ExportFile[] {
  const pow = Array.from({ length: MAX_FRAC }, (_, i) => cHexDouble(10 ** -(i + 1))).join(", ");
  return [
    { path: `${dir}satpayload_rt.h`, content: RUNTIME_H, language: "h" },
    { path: `${dir}satpayload_rt.c`, content: RUNTIME_C.replace("@POW10_NEG@", pow), language: "c" },
    { path: `${dir}${C_README}`, content: C_README_TEXT, language: "md" },
  ];
}
