// Must be the first import of every entry: zod probes `new Function` when schemas are built, which the CSP
// forbids and reports as a violation. Import order guarantees this runs before any schema module.
import { z } from "zod";

z.config({ jitless: true });
