// A list the start screen asks the host for (presets, recent and deleted projects), with its loading error.
import { useEffect, useRef, useState } from "react";
import { asHostError } from "../host/errors.ts";

/**
 * Loads when the screen mounts and again when `revision` changes (a project deleted or restored); callers pass
 * a new closure on every render, so the one of the latest render is used. A reload keeps the shown list until
 * its answer comes, so rows do not blink.
 */
export function useHostList<T>(load: () => Promise<T>, revision = 0): { data: T | null; error: string | null } {
  const [state, setState] = useState<{ data: T | null; error: string | null }>({ data: null, error: null });
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let live = true;
    latest.current().then(
      (data) => live && setState({ data, error: null }),
      (e: unknown) => live && setState({ data: null, error: asHostError(e).describe() }),
    );
    return () => {
      live = false;
    };
  }, [revision]);
  return state;
}
