// "#planning/paper": the load results Kumar et al. published and their figure of merit, so a load test,
// its bench and the renderer can put the paper's cell beside ours.
export { PAPER_WORKLOAD, paperFomCell, paperLoadCell } from "./tables.ts";
export { PAPER_TABLE6, figureOfMerit, fomRange } from "../fom.ts";
