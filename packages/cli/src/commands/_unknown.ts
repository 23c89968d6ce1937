import { createDiagnostic, type Diagnostic, filterLexical } from "@skillshelf/core";

/**
 * `resource_unknown` for `name`, naming up to five of `items` whose names or descriptions are
 * close to it (`similar`, which its hint lists).
 */
export function unknownResource(
  kind: string,
  name: string,
  items: readonly { readonly name: string; readonly description?: string | undefined }[],
  message: string,
): Diagnostic {
  const similar = filterLexical(
    items,
    name,
    (item) => `${item.name.replaceAll("-", " ")} ${item.description ?? ""}`,
  ).items.slice(0, 5);
  return createDiagnostic("error", "resource_unknown", message, {
    details: {
      kind,
      name,
      ...(similar.length === 0 ? {} : { similar: similar.map((item) => item.name) }),
    },
  });
}
