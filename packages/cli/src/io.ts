/** Where the command line writes, and what it knows about its process; tests pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Colour only on a terminal and never with `NO_COLOR`. */
  readonly color: boolean;
  /** A person can answer: stdin and stdout are a terminal. Changes ask before applying. */
  readonly interactive: boolean;
  /** stderr is a terminal: long work shows progress there. */
  readonly progress: boolean;
  /**
   * Call `handler` on Ctrl-C or SIGTERM instead of ending the process, until the returned
   * function is called: for work that can stop cleanly (fetching), never for a change on disk.
   */
  readonly onInterrupt?: ((handler: () => void) => () => void) | undefined;
}

/** The io of a real process. */
export function processIo(): CliIo {
  const env = process.env;
  const plain = (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb";
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env,
    cwd: process.cwd(),
    color: process.stdout.isTTY === true && !plain,
    // asked only by a change about to be confirmed: opening stdin costs a read command ~20 ms
    get interactive() {
      return process.stdin.isTTY === true && process.stdout.isTTY === true;
    },
    progress: process.stderr.isTTY === true,
    onInterrupt: (handler) => {
      for (const signal of INTERRUPTS) process.on(signal, handler);
      return () => {
        for (const signal of INTERRUPTS) process.off(signal, handler);
      };
    },
  };
}

const INTERRUPTS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];
