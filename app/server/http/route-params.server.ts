/** Route parameters that must be positive integer ids; anything else is a 404, never a crash. */
export function parseId(value: string | undefined, what: string): number {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) {
    throw new Response(`There is no ${what} "${value ?? ""}".`, { status: 404, statusText: "Not Found" });
  }
  return Number(value);
}
