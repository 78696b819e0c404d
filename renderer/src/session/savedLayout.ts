// The layout the host has for the open project (as opened, or as last saved): an edit is unsaved while the draft
// is not this very object. null while no project is open, and after a conflict resolved by overwriting (the next
// save must go out whatever the draft is).
import type { Layout } from "#codecs";

let saved: Layout | null = null;

export const savedLayout = (): Layout | null => saved;

export function setSavedLayout(layout: Layout | null): void {
  saved = layout;
}
