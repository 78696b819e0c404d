// The designer's transport stack per platform (the cost page keeps its own in each scenario); remembered in localStorage.
import { create } from "zustand";
import { isStackId, type StackId } from "#planning";

interface StackChoice {
  /** platform id → chosen stack; a platform left out uses its default */
  stacks: Record<string, StackId>;
  choose(platformId: string, stack: StackId): void;
}

const KEY = "satpayload.stacks";

function restore(): Record<string, StackId> {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "{}") as unknown;
    if (!raw || typeof raw !== "object") return {};
    return Object.fromEntries(
      Object.entries(raw).filter((e): e is [string, StackId] => typeof e[1] === "string" && isStackId(e[1])),
    );
  } catch {
    // unreadable: defaults
    return {};
  }
}

export const useStackChoice = create<StackChoice>()((set, get) => ({
  stacks: restore(),
  choose(platformId, stack) {
    set({ stacks: { ...get().stacks, [platformId]: stack } });
    try {
      localStorage.setItem(KEY, JSON.stringify(get().stacks));
    } catch {
      // private mode or quota: the choice stays for this session only
    }
  },
}));
