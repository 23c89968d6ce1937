import { sshVerify } from "@skillshelf/sources";
import { testdir } from "@skillshelf/test-utils";
import { describe, expect, it } from "vitest";

describe("sshVerify", () => {
  it("says a garbage signature is invalid when ssh-keygen exits before reading the message", async () => {
    // ssh-keygen refuses the signature file before it reads its input: a message larger than a
    // pipe holds is cut short (EPIPE), which must not escape as an error of the process
    const message = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const garbage =
      "-----BEGIN SSH SIGNATURE-----\nbm90IGEgc2lnbmF0dXJl\n-----END SSH SIGNATURE-----\n";
    const unhandled: unknown[] = [];
    const keep = (error: unknown) => unhandled.push(error);
    process.on("uncaughtException", keep);
    try {
      for (let round = 0; round < 3; round++)
        expect(await sshVerify(message, garbage, testdir())).toHaveProperty("invalid");
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off("uncaughtException", keep);
    }
    expect(unhandled).toEqual([]);
  });
});
