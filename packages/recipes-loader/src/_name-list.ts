/** A YAML list of strings, or one comma-separated string, as a list of trimmed names. */
export function nameList(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}
