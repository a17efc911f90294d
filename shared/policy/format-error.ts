// The one error a bad policy file, a bad rule or a bad --allow/--trust value raises, naming where the mistake is.

export class PolicyFormatError extends Error {
  /** Each problem as `where: what` (a field path such as `rules[2].site`, a flag, or `line 3, column 7`). */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(
      problems.length === 1
        ? problems[0]
        : `${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'PolicyFormatError';
    this.problems = problems;
  }
}
