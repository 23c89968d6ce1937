import type { PackageScope } from "@skillshelf/core";
import {
  type ChangeCommand,
  type ChangeSession,
  changeSession,
  type LifecyclePlan,
} from "@skillshelf/lifecycle";
import type { ServerTool, ToolAnswer, ToolClient } from "@skillshelf/mcp";
import { planText } from "../_plan-text.js";
import { type CommandContext, publicDiagnostic } from "../context.js";
import { painter, safeLine } from "../format.js";

/** The change commands `skillshelf mcp --allow-changes` serves as tools, and what each says of itself. */
const CHANGE_TOOLS: readonly { readonly command: ChangeCommand; readonly does: string }[] = [
  {
    command: "install",
    does: "Install packages or skills (a source: folder, git URL, archive, npm:, oci:, an index name; a collection needs `skills`). With no targets, restore the scope from its lock.",
  },
  { command: "update", does: "Update installed packages by id (none named: every one)." },
  { command: "enable", does: "Enable installed packages by id." },
  { command: "disable", does: "Disable installed packages by id (kept, no longer loaded)." },
  { command: "remove", does: "Remove installed packages by id." },
];

const TARGETS = { type: "array", items: { type: "string" } } as const;

/**
 * The change commands as MCP tools, each run through `changeSession` as the terminal runs it:
 * the plan and every audit approval are put to the person at the client (MCP elicitation) and
 * nothing is applied without their yes; a client that cannot ask changes nothing
 * (`confirmation_required`). A collection's skills are named in `skills`, never picked for the
 * person. The answer is the session as JSON.
 */
export function changeTools(
  context: CommandContext,
  scope: PackageScope | undefined,
): ServerTool[] {
  return CHANGE_TOOLS.map(({ command, does }) => ({
    name: command,
    description: `${does} Every change is shown to the user, who must approve it; audit findings at or above high need their approval too. dryRun: plan only.`,
    inputSchema: {
      type: "object",
      properties: {
        targets: { ...TARGETS, description: "what to change (see the tool's description)" },
        ...(command === "install"
          ? {
              skills: { ...TARGETS, description: "for a collection: the skills to install" },
              agents: {
                ...TARGETS,
                description: "agents to link each skill into (agent table ids)",
              },
            }
          : {}),
        scope: { type: "string", enum: ["user", "project"] },
        dryRun: { type: "boolean", description: "plan and show, change nothing" },
      },
      required: ["targets"],
    },
    call: (args, client) => callChange(context, command, { scope, args }, client),
  }));
}

// --- internal ---

async function callChange(
  context: CommandContext,
  command: ChangeCommand,
  call: {
    readonly scope: PackageScope | undefined;
    readonly args: Readonly<Record<string, unknown>>;
  },
  client: ToolClient,
): Promise<ToolAnswer> {
  const { args } = call;
  const targets = strings(args.targets);
  const skills = strings(args.skills);
  const agents = strings(args.agents);
  const scope = args.scope === "user" || args.scope === "project" ? args.scope : call.scope;
  if (targets === undefined || skills === undefined || agents === undefined)
    return { text: "targets, skills and agents are lists of strings", isError: true };
  const show = (plan: LifecyclePlan, scope: PackageScope) =>
    planText(plan, scope, context.style, painter(false));
  const session = await changeSession(
    {
      command,
      environment: context.environment,
      targets,
      scope,
      skills,
      ...(agents.length === 0 ? {} : { agents }),
      dryRun: args.dryRun === true,
      signal: client.signal,
    },
    {
      approve: ({ plan, scope, rules, refs }) =>
        client
          .confirm(
            `${show(plan, scope)}\nThe audit refused ${refs.map(safeLine).join(", ")} for ${rules.map(safeLine).join(", ")}. Approve these rules for exactly these files?`,
          )
          .then((answer) => answer === true),
      confirm: (change) =>
        client.confirm(
          "plan" in change
            ? `${show(change.plan, change.scope)}\nApply this change?`
            : `Links in the ${change.scope} scope that differ from its lock:\n${change.links.map(safeLine).join("\n")}\nApply this change?`,
        ),
    },
  );
  return { text: JSON.stringify(sessionJson(session), null, 2), isError: !session.ok };
}

/** A tool's answer: the session, for a model to read. */
function sessionJson(session: ChangeSession) {
  return {
    scope: session.scope,
    ok: session.ok,
    ...(session.stopped === undefined ? {} : { stopped: session.stopped }),
    steps: session.plan.steps.map((step) => ({
      id: step.id,
      operation: step.operation,
      ref: step.ref,
      ...(step.refusal === undefined ? {} : { refused: publicDiagnostic(step.refusal) }),
    })),
    outcomes: (session.result?.outcomes ?? []).map((outcome) => ({
      id: outcome.step.id,
      status: outcome.status,
    })),
    diagnostics: session.diagnostics.map(publicDiagnostic),
  };
}

/** A list of strings from a tool's arguments (absent: none); `undefined` when it is something else. */
function strings(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((item) => typeof item === "string")
    ? value
    : undefined;
}
