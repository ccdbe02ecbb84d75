import { useEffect, useState, type RefObject } from "react";

/**
 * Copies the text of `target` to the clipboard. Shown only once the page runs script; without it
 * the text stays on the page to select by hand. Where the clipboard is refused, the text is
 * selected instead and the button says to press Ctrl+C.
 */
export function CopyButton({ target, label = "Copy" }: { target: RefObject<HTMLElement>; label?: string }) {
  const [ready, setReady] = useState(false);
  const [state, setState] = useState<"idle" | "copied" | "select">("idle");
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  const copy = async () => {
    const node = target.current;
    if (!node) return;
    try {
      await navigator.clipboard.writeText(node.textContent ?? "");
      setState("copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(node);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      setState("select");
    }
  };
  return (
    <>
      <button type="button" className="button-secondary" onClick={copy}>
        {label}
      </button>
      <span role="status" className="muted">
        {state === "copied" ? " Copied." : state === "select" ? " Selected: press Ctrl+C to copy." : ""}
      </span>
    </>
  );
}
