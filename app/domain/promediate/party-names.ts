/**
 * ProMediate's party names as the studio's party codes, by the rule every ProMediate import shares:
 * the case's `names` key upper-cased, every character outside A–Z and 0–9 replaced by "_", cut to
 * 16 characters. Two spellings of one name (MacNamara in `config`, Macnamara in `names`) meet at one
 * code; a speaker found only that way is accepted with a warning.
 */

export function partyCode(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "_")
    .slice(0, 16);
}

export interface CaseNames {
  /** The parties' `names` keys in the case's order (the order of ProMediate's pair lists). */
  names: string[];
  /** The parties' `config` keys in the case's order (the slots ProMediate's pipeline writes updates to). */
  configNames: string[];
}

export type NameMatch = { code: string; name: string; exact: boolean } | null;

/** The party a name written in a log or record stands for: its `names` key, or one with the same code. */
export function matchParty(names: readonly string[], written: string): NameMatch {
  if (names.includes(written)) return { code: partyCode(written), name: written, exact: true };
  const code = partyCode(written);
  const name = names.find((n) => partyCode(n) === code);
  return name === undefined ? null : { code, name, exact: false };
}
