import type {
  ProviderControl,
  SkillCandidate,
  SkillDefinition,
  SkillProvider,
} from "@skillshelf/registry";

export const candidate = (
  provider: string,
  name: string,
  rank = 500,
  extra: Partial<SkillCandidate> = {},
): SkillCandidate => ({
  name,
  description: `${name} from ${provider}`,
  invocation: { modelInvocable: true, userInvocable: true },
  source: provider,
  provider,
  rank,
  locator: `${provider}/${name}`,
  ...extra,
});

/** A provider over fixed candidates that counts its calls and can be told to misbehave. */
export interface FakeProvider {
  readonly create: (control: ProviderControl) => SkillProvider;
  readonly calls: { list: number; get: number };
  control: ProviderControl | undefined;
}

export function fakeProvider(
  name: string,
  candidates: (
    call: number,
  ) =>
    | readonly unknown[]
    | Promise<readonly unknown[]>
    | { candidates: readonly unknown[]; complete: boolean },
  options: { get?: (candidate: SkillCandidate, signal: AbortSignal) => unknown } = {},
): FakeProvider {
  const fake: FakeProvider = {
    calls: { list: 0, get: 0 },
    control: undefined,
    create: (control) => {
      fake.control = control;
      return {
        name,
        list: () => candidates(++fake.calls.list) as readonly SkillCandidate[],
        get: (item, { signal }) => {
          fake.calls.get += 1;
          if (options.get !== undefined)
            return options.get(item, signal) as SkillDefinition | undefined;
          return { ...item, content: `Body of ${item.name}.` } as SkillDefinition;
        },
      };
    },
  };
  return fake;
}

/** A promise that never settles, for uncooperative providers. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}
