import { Form } from "@remix-run/react";
import type { SortState } from "../domain/table-sort.ts";

export interface FilterSelect {
  name: string;
  label: string;
  value: string;
  /** The choices besides "all" (the empty value). */
  options: { value: string; label: string }[];
}

export interface TableFilterProps {
  /** Names the form for assistive technology ("Filter runs"), and prefixes its fields' ids. */
  label: string;
  text: { value: string; placeholder: string };
  selects: FilterSelect[];
  sort: SortState;
  /** Parameters kept as they are (the runs page's `condition`). */
  keep?: Record<string, string>;
}

/**
 * A table's filter: words to find and a few choices. A GET form, so a filtered, sorted table is a
 * link and works without script; the sort (and `keep`) ride along as hidden fields.
 */
export function TableFilter({ label, text, selects, sort, keep = {} }: TableFilterProps) {
  const id = (name: string) => `${label.toLowerCase().replace(/\W+/g, "-")}-${name}`;
  return (
    <Form method="get" className="inline-form table-filter" role="search" aria-label={label}>
      <label>
        Find <input name="q" type="search" defaultValue={text.value} placeholder={text.placeholder} />
      </label>
      {selects.map((s) => (
        // Labelled by id, not wrapped: a wrapping label would read out every option.
        <span className="filter-field" key={s.name}>
          <label htmlFor={id(s.name)}>{s.label}</label>
          <select name={s.name} id={id(s.name)} defaultValue={s.value}>
            <option value="">all</option>
            {s.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </span>
      ))}
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="sort" value={sort.key} />
      <input type="hidden" name="dir" value={sort.dir} />
      <button type="submit" className="button-secondary">
        Filter
      </button>
    </Form>
  );
}
