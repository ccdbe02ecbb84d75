/**
 * A small XML well-formedness check for the SVG files (no XML parser is a dependency): every tag
 * closes in order, attributes are quoted, and the marks of each Vega mark group are counted.
 */
export interface SvgSummary {
  root: string;
  /** Elements inside each `<g class="mark-<type> role-mark …">`, by mark type. */
  marks: Record<string, number>;
}

export function checkSvg(text: string): SvgSummary {
  const body = text
    .replace(/<\?xml[^>]*\?>/, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .trim();
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
  const stack: { name: string; mark: string | null }[] = [];
  const marks: Record<string, number> = {};
  let root = "";
  let pos = 0;
  while (pos < body.length) {
    const lt = body.indexOf("<", pos);
    if (lt < 0) break;
    if (/[<>]/.test(body.slice(pos, lt).replace(/&[a-z#0-9]+;/g, ""))) throw new Error(`stray markup before ${lt}`);
    tag.lastIndex = lt;
    const m = tag.exec(body);
    if (!m) throw new Error(`malformed tag at ${lt}: ${body.slice(lt, lt + 80)}`);
    const [, closing, name, attrs, selfClosing] = m;
    if (closing) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> closes <${open?.name ?? "nothing"}>`);
    } else {
      if (stack.length === 0) {
        if (root) throw new Error("more than one root element");
        root = name;
      }
      const inMark = stack.length > 0 ? stack[stack.length - 1].mark : null;
      if (inMark && stack[stack.length - 1].name === "g") marks[inMark] = (marks[inMark] ?? 0) + 1;
      const cls = /class="mark-(\w+) role-mark/.exec(attrs);
      if (!selfClosing) stack.push({ name, mark: name === "g" && cls ? cls[1] : null });
    }
    pos = tag.lastIndex;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  return { root, marks };
}
