/**
 * Settle with `work`, unless `signal` aborts first (reject with its reason) or `timeoutMs` passes
 * (reject with a timeout error). The timer keeps the process alive while the call is pending, so
 * a provider that never settles still times out when nothing else is running; it is cleared the
 * moment the call settles.
 */
export function race<T>(
  work: T | Promise<T>,
  signal: AbortSignal,
  timeoutMs: number,
  what: string,
): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => finish(() => reject(abortReason(signal)));
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(
          () =>
            finish(() => reject(deadlinePassed(`${what} did not answer within ${timeoutMs} ms`))),
          timeoutMs,
        )
      : undefined;
    signal.addEventListener("abort", onAbort, { once: true });
    let done = false;
    function finish(settle: () => void): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      settle();
    }
    Promise.resolve(work).then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(toError(error))),
    );
  });
}

/** Whether `error` is `race`'s: the call did not answer by its deadline (and may still). */
export function isDeadlinePassed(error: unknown): boolean {
  return error instanceof Error && error.name === "DeadlineError";
}

function deadlinePassed(message: string): Error {
  const error = new Error(message);
  error.name = "DeadlineError";
  return error;
}

/** The reason an aborted signal gives, as an `Error`. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === "string" ? reason : "the operation was aborted");
  error.name = "AbortError";
  return error;
}

/** Any thrown value as an `Error` with a safe message, even when inspecting it throws. */
export function toError(value: unknown): Error {
  try {
    if (value instanceof Error) return value;
    return new Error(
      typeof value === "string" ? value : `non-error value thrown: ${String(value)}`,
    );
  } catch {
    return new Error("non-error value thrown");
  }
}
