/** A problem found in a judge's output: a JSON path relative to the output, and what is wrong. */
export interface JudgeProblem {
  path: (string | number)[];
  message: string;
}

export function formatJsonPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (acc, part) =>
      typeof part === "number"
        ? `${acc}[${part}]`
        : /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)
          ? `${acc}.${part}`
          : `${acc}[${JSON.stringify(part)}]`,
    "$",
  );
}
