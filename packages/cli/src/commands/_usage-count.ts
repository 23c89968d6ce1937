import type { Environment } from "@skillshelf/core";
import type { SkillUse } from "@skillshelf/mcp";
import { appendUsage, type UsageRow } from "@skillshelf/store";

/**
 * What MCP clients were served, counted per skill and day, and written to the usage file at each
 * `flush` when counting is enabled then (otherwise dropped).
 */
export function usageCounter(environment: Environment): {
  readonly count: (use: SkillUse) => void;
  readonly flush: () => void;
} {
  const counts = new Map<string, UsageRow>();
  return {
    count: ({ skill, request }) => {
      const day = new Date().toISOString().slice(0, 10);
      const key = `${day}\0${skill}`;
      const row = counts.get(key) ?? { day, skill, gets: 0, reads: 0 };
      counts.set(key, {
        ...row,
        gets: row.gets + (request === "skills/get" ? 1 : 0),
        reads: row.reads + (request === "resources/read" ? 1 : 0),
      });
    },
    // counts made while counting is off are dropped here, never written later
    flush: () => {
      if (counts.size === 0) return;
      const rows = [...counts.values()];
      counts.clear();
      appendUsage(environment, rows);
    },
  };
}
