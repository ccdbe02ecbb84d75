import type { MetaFunction } from "@remix-run/node";
import { GLOSSARY, docsReference, glossaryAnchor } from "../domain/glossary.ts";

export const meta: MetaFunction = () => [{ title: "Glossary · SoCRATES Studio" }];

/**
 * Every symbol the research pages use, one entry each, with the docs heading that defines it in
 * full. Public: it holds definitions only, no data. The docs are not served, so the heading is
 * named as a path in the repository.
 */
export default function Glossary() {
  return (
    <>
      <h1>Glossary</h1>
      <p className="muted">
        The symbols and abbreviations on the run, scenario, benchmark and study pages. Each one there links here; the
        full definitions are in the project's documentation, at the heading named below each entry.
      </p>
      <dl className="glossary">
        {GLOSSARY.map((e) => (
          <div key={e.key}>
            <dt id={glossaryAnchor(e.key)}>{e.symbol === e.name ? e.name : `${e.symbol} — ${e.name}`}</dt>
            <dd>
              {e.text}{" "}
              <span className="muted">
                Defined in <code>{docsReference(e)}</code> (“{e.heading}”).
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}
