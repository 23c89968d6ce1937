// Which rules' keywords a file holds, found in one pass over its bytes: an Aho-Corasick automaton
// made into a table of every state's next state for every byte, upper-case ASCII folded onto
// lower case. A 50-word regular expression read 40 MB in about 100 ms; this reads it in about 50.

/** A compiled set of keywords, each standing for the bits of the rules that list it. */
export interface KeywordScanner {
  /** The bits of every rule one of whose keywords `bytes` holds (case-insensitively for ASCII). */
  scan(bytes: Uint8Array): number;
}

/** Keywords, each a string or raw bytes, with the rule bits it stands for. */
type Keywords = readonly (readonly [word: string | Uint8Array, bits: number])[];

/**
 * A scanner of `keywords` (each a string, matched as its lower-cased UTF-8 bytes, so a keyword
 * may be an invisible character, or raw bytes, such as the lead bytes a range of characters
 * shares; and the rule bits it stands for), compiled when it first scans: a command that audits
 * nothing does not pay for the table (a few milliseconds at start).
 */
export function keywordScanner(keywords: Keywords): KeywordScanner {
  let compiled: KeywordScanner["scan"] | undefined;
  return {
    scan(bytes) {
      compiled ??= compile(keywords);
      return compiled(bytes);
    },
  };
}

/** The automaton of `keywords` as a scan. */
function compile(keywords: Keywords): KeywordScanner["scan"] {
  // the trie: each state's children by byte, and the bits of the keywords ending there
  const children: Map<number, number>[] = [new Map()];
  const bits: number[] = [0];
  for (const [word, wordBits] of keywords) {
    let state = 0;
    for (const byte of typeof word === "string" ? Buffer.from(word.toLowerCase(), "utf8") : word) {
      let next = children[state]?.get(byte);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        bits.push(0);
        children[state]?.set(byte, next);
      }
      state = next;
    }
    bits[state] = (bits[state] ?? 0) | wordBits;
  }
  // breadth first, each state's row starts as its failure state's row (the moves it lacks), then
  // takes its own children; a state also ends every keyword its failure state ends. A failure
  // state is shallower, so its bits are whole when a child's are made, and rows are written in
  // the form the scan reads at once: a state as its row's offset, negative when keywords end there
  const table = new Int32Array(children.length * 256);
  const failure = new Int32Array(children.length);
  const queue: number[] = [0];
  for (let at = 0; at < queue.length; at++) {
    const state = queue[at] as number;
    const fallback = failure[state] as number;
    if (state !== 0) table.copyWithin(state * 256, fallback * 256, fallback * 256 + 256);
    for (const [byte, child] of children[state] ?? []) {
      const childFailure = state === 0 ? 0 : stateAt(table[fallback * 256 + byte] as number);
      failure[child] = childFailure;
      bits[child] = (bits[child] ?? 0) | (bits[childFailure] ?? 0);
      table[state * 256 + byte] = bits[child] === 0 ? child * 256 : -(child * 256) - 1;
      queue.push(child);
    }
    // upper-case ASCII moves as its lower case does
    table.copyWithin(state * 256 + 65, state * 256 + 97, state * 256 + 123);
  }
  const ending = Int32Array.from(bits);
  return (bytes) => {
    let row = 0;
    let found = 0;
    for (let at = 0; at < bytes.length; at++) {
      row = table[row + (bytes[at] as number)] as number;
      if (row < 0) {
        row = -row - 1;
        found |= ending[row >> 8] as number;
      }
    }
    return found;
  };
}

/** The state a table entry moves to. */
function stateAt(entry: number): number {
  return (entry < 0 ? -entry - 1 : entry) >> 8;
}
