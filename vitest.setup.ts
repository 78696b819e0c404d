// Runs in every test file. A file of synchronous tests never returns to the event loop between them
// (awaiting a resolved promise runs microtasks only), so the worker cannot read the main process's
// answers to its progress reports; after 60 s vitest 3 reports "[vitest-worker]: Timeout calling
// onTaskUpdate" and fails the run although every test passed (vitest-dev/vitest#6479, #8164). On a
// busy machine such a file passes 60 s. One trip through the event loop after each test lets the
// answers in (on the real setImmediate, taken before a test can install fake timers).
import { afterEach } from "vitest";

const defer: (f: () => void) => unknown = globalThis.setImmediate ?? ((f) => setTimeout(f, 0));
afterEach(() => new Promise<void>((resolve) => defer(resolve)));
