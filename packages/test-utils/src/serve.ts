import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/** A loopback HTTP server answering from `routes`, closed when the test ends; returns its base URL. */
export async function serve(routes: Record<string, Buffer | RequestListener>): Promise<string> {
  const server = createServer((request, response) => {
    const route = routes[request.url ?? ""];
    if (route === undefined) {
      response.writeHead(404).end();
    } else if (Buffer.isBuffer(route)) {
      response
        .writeHead(200, { "content-type": "application/gzip", "content-length": route.length })
        .end(route);
    } else route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  onTestFinished(() => server.closeAllConnections());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
