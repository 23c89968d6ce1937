// Lines of a text by offset: where a match found in the whole text is.

/** The offsets where each line of a text starts, to place a match by its offset. */
export class LineIndex {
  readonly #starts: number[] = [0];
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1))
      this.#starts.push(at + 1);
  }
  get count(): number {
    return this.#starts.length;
  }
  /** The 0-based line holding `offset`. */
  lineOf(offset: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.#starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
  start(line: number): number {
    return this.#starts[line] ?? this.#text.length;
  }
  /** The offset of the line's end (its newline, or the text's end). */
  end(line: number): number {
    const next = this.#starts[line + 1];
    return next === undefined ? this.#text.length : next - 1;
  }
  /** The 0-based line of the frontmatter's closing `---` (0 when the text opens with none). */
  frontmatterEnd(): number {
    if (this.#text.slice(0, this.end(0)).trim() !== "---") return 0;
    for (let line = 1; line < this.#starts.length; line++)
      if (this.#text.slice(this.start(line), this.end(line)).trim() === "---") return line;
    return 0;
  }
}
