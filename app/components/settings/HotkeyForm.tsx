/**
 * One task type's keys on the settings page: each shortcut with a text field holding its keys (the annotator's, else
 * the defaults), the defaults beside it, problems at their fields, Save and Reset to defaults. A refused form keeps
 * what was typed; a stored change starts the form over from what is stored.
 */
import { Form, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { displayKey } from "../../domain/shortcuts.ts";
import { FieldErrors, problemsAt } from "../tasks/FieldErrors.tsx";

export interface HotkeyTable {
  id: string;
  name: string;
  /** The annotator has keys of their own for this type. */
  changed: boolean;
  shortcuts: {
    command: string;
    description: string;
    group: string;
    /** The keys as the field writes them ("Ctrl+Enter"). */
    written: string;
    defaults: string[];
    positional: boolean;
    fixed: boolean;
  }[];
}

export function HotkeyForm({
  table,
  problems,
}: {
  table: HotkeyTable;
  problems: readonly { path: string; message: string }[];
}) {
  const base = useId();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("taskType") === table.id;
  const groups = [...new Set(table.shortcuts.map((s) => s.group))];
  // Remounted when what is stored changes (a save or a reset), so the fields show it.
  const stored = table.shortcuts.map((s) => s.written).join("|");
  return (
    <section className="hotkey-settings" aria-labelledby={`${base}-title`} data-task-type={table.id}>
      <h3 id={`${base}-title`}>
        {table.name}
        {table.changed ? (
          <span className="muted"> · your own keys</span>
        ) : (
          <span className="muted"> · default keys</span>
        )}
      </h3>
      <Form method="post" key={stored}>
        <input type="hidden" name="taskType" value={table.id} />
        {groups.map((group) => (
          <table key={group} className="hotkey-table">
            <caption>{group}</caption>
            <thead>
              <tr>
                <th scope="col">Command</th>
                <th scope="col">Keys</th>
                <th scope="col">Default</th>
              </tr>
            </thead>
            <tbody>
              {table.shortcuts
                .filter((s) => s.group === group)
                .map((s) => (
                  <HotkeyRow key={s.command} base={base} taskType={table.id} shortcut={s} problems={problems} />
                ))}
            </tbody>
          </table>
        ))}
        <div className="hotkey-buttons">
          <button type="submit" name="intent" value="hotkeys" className="button-primary" disabled={busy}>
            Save keys for {table.name}
          </button>
          <button type="submit" name="intent" value="resetHotkeys" className="button-secondary" disabled={busy}>
            Reset {table.name} to defaults
          </button>
        </div>
      </Form>
    </section>
  );
}

function HotkeyRow({
  base,
  taskType,
  shortcut: s,
  problems,
}: {
  base: string;
  taskType: string;
  shortcut: HotkeyTable["shortcuts"][number];
  problems: readonly { path: string; message: string }[];
}) {
  const id = `${base}-${s.command}`;
  const path = `${taskType}.keys.${s.command}`;
  const invalid = problemsAt(problems, path).length > 0;
  const defaults = s.defaults.map(displayKey).join(" / ");
  return (
    <tr>
      <th scope="row">
        <label htmlFor={id}>{s.description}</label>
        {s.positional ? (
          <span className="muted" id={`${id}-hint`}>
            {" "}
            ({s.defaults.length} keys, one per value in order)
          </span>
        ) : null}
      </th>
      <td>
        {s.fixed ? (
          <input id={id} className="hotkey-input" value={s.written} readOnly aria-describedby={`${id}-fixed`} />
        ) : (
          <input
            id={id}
            className="hotkey-input"
            name={`keys.${s.command}`}
            defaultValue={s.written}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={invalid || undefined}
            aria-describedby={
              [s.positional ? `${id}-hint` : "", invalid ? `${id}-error` : ""].join(" ").trim() || undefined
            }
          />
        )}
        {s.fixed ? (
          <span className="muted" id={`${id}-fixed`}>
            {" "}
            (fixed)
          </span>
        ) : null}
        <FieldErrors id={`${id}-error`} problems={problems} path={path} />
      </td>
      <td>
        <kbd>{defaults}</kbd>
      </td>
    </tr>
  );
}
