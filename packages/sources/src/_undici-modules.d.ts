// The modules of undici this package loads one by one (its index loads everything): typed as
// the package's own declarations describe the classes and function they export.

declare module "undici/lib/dispatcher/agent.js" {
  import type { Agent } from "undici";

  const AgentClass: typeof Agent;
  export = AgentClass;
}

declare module "undici/lib/api/api-request.js" {
  import type { Dispatcher } from "undici";

  /** undici's `request`, called with the dispatcher as `this`. */
  function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
  export = request;
}
