/**
 * A box that scrolls sideways on its own (a wide table or chart on a phone) instead of widening
 * the page. While its content is wider than the box it says so: a "scroll →" cue above and a
 * shadow at the edge that still hides content (app/styles.css, `.scroll-x`).
 */
import { useEffect, useRef, useState, type ReactNode } from "react";

export function ScrollX({ label, children }: { label: string; children: ReactNode }) {
  const body = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  const [atEnd, setAtEnd] = useState(false);
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const check = () => {
      setOverflowing(el.scrollWidth > el.clientWidth + 1);
      setAtEnd(el.scrollLeft + el.clientWidth >= el.scrollWidth - 1);
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    el.addEventListener("scroll", check, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", check);
    };
  }, []);
  return (
    <div className="scroll-x" data-overflowing={overflowing ? "" : undefined} data-at-end={atEnd ? "" : undefined}>
      {overflowing ? (
        <p className="scroll-cue" aria-hidden="true">
          scroll →
        </p>
      ) : null}
      {/* Focusable, so keyboard users can scroll it with the arrow keys. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a scroll box inside a figure, not a page section */}
      <div ref={body} className="scroll-x-body" role="region" aria-label={label} tabIndex={overflowing ? 0 : -1}>
        {children}
      </div>
    </div>
  );
}
