/** Renders guideline Markdown (the small subset of app/domain/markdown.ts) as React elements, never as HTML strings. */
import { Fragment, createElement, type ReactNode } from "react";
import { parseMarkdown, type MdInline } from "../../domain/markdown.ts";

function renderInline(nodes: MdInline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case "text":
        return <Fragment key={i}>{node.text}</Fragment>;
      case "code":
        return <code key={i}>{node.text}</code>;
      case "strong":
        return <strong key={i}>{renderInline(node.children)}</strong>;
      case "em":
        return <em key={i}>{renderInline(node.children)}</em>;
      case "link":
        // A new tab, so following a link never loses an unsaved label.
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer">
            {renderInline(node.children)}
          </a>
        );
    }
  });
}

/** `headingOffset` shifts levels so a guideline's "#" sits below the page's own headings. */
export function Markdown({
  source,
  headingOffset = 2,
  className = "markdown",
}: {
  source: string;
  headingOffset?: number;
  className?: string;
}) {
  const blocks = parseMarkdown(source);
  return (
    <div className={className}>
      {blocks.map((block, i) => {
        switch (block.type) {
          case "heading":
            return createElement(
              `h${Math.min(6, block.level + headingOffset)}`,
              { key: i },
              renderInline(block.children),
            );
          case "paragraph":
            return <p key={i}>{renderInline(block.children)}</p>;
          case "list":
            return block.ordered ? (
              <ol key={i} start={block.start === 1 ? undefined : block.start}>
                {block.items.map((item, j) => (
                  <li key={j}>{renderInline(item)}</li>
                ))}
              </ol>
            ) : (
              <ul key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>{renderInline(item)}</li>
                ))}
              </ul>
            );
        }
      })}
    </div>
  );
}
