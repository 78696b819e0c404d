// A batch's user-facing halves as ordinary layouts: one reading (the per-reading fields) and the fields
// sent once per message. The C types and the network decoders' output are built from them, so a reading
// reads like the layout's own record of those fields.
import type { Layout } from "#codecs";
import type { BatchPlan } from "#codecs/plans";

export interface BatchParts {
  /** `<Message>Reading`: the per-reading fields, in layout order */
  reading: Layout;
  /** `<Message>Once`: every other field */
  once: Layout;
}

export function batchParts(layout: Layout, plan: BatchPlan): BatchParts {
  const perReading = new Set(layout.batch?.perReading.map((p) => p.field));
  const { batch: _batch, ...plain } = layout;
  return {
    reading: {
      ...plain,
      message: `${layout.message}Reading`,
      fields: layout.fields.filter((f) => perReading.has(f.id)),
    },
    once: { ...plain, message: `${layout.message}Once`, fields: plan.once },
  };
}

/** "delta" → "Delta": the form in a message or type name. */
export const formTitle = (form: string): string => form.charAt(0).toUpperCase() + form.slice(1);
