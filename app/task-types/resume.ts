/** Reading back what an annotator left on an item: a stored draft or label, if it is of the given type. */

/** The value as a payload of type `id` when its `kind` says so (its fields are not checked), else null. */
export function ofKind<Label extends { kind: string }>(id: Label["kind"], value: unknown): Label | null {
  return value !== null && typeof value === "object" && (value as { kind?: unknown }).kind === id
    ? (value as Label)
    : null;
}
