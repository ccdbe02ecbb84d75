/**
 * The two conversations of an A/B item. Where they fit (ab-task.css: 760 px and wider) they stand
 * side by side, each scrolling in its own box of the window's height; on a phone they are two
 * tabs (WAI-ARIA tabs pattern: arrow keys, Home and End move between them) under a tab bar that
 * stays in view, so the other conversation is always one tap or key away.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { TaskDialogue } from "../../components/tasks/TaskDialogue.tsx";
import type { TaskTurn } from "../task-view.ts";
import type { AbChoice } from "./ab-task-state.ts";

/** Kept in step with the breakpoint in app/styles/ab-task.css. */
const TABS_QUERY = "(max-width: 759.98px)";
const SIDES = ["A", "B"] as const;

export function AbConversations({
  base,
  conversationA,
  conversationB,
  partyOrder,
  targetPartyId,
  choice,
}: {
  base: string;
  conversationA: TaskTurn[];
  conversationB: TaskTurn[];
  partyOrder: readonly string[];
  targetPartyId: string;
  choice: AbChoice | null;
}) {
  const tabs = useMediaQuery(TABS_QUERY);
  const [shown, setShown] = useState<AbChoice>("A");
  const columns = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Record<AbChoice, HTMLButtonElement | null>>({ A: null, B: null });

  const show = (side: AbChoice, focus: boolean) => {
    setShown(side);
    if (focus) tabRefs.current[side]?.focus();
    // Scrolled down the other conversation: start this one at its first turn, under the tab bar.
    const top = columns.current?.getBoundingClientRect().top ?? 0;
    if (top < 0) window.scrollBy(0, top);
  };
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const next: Partial<Record<string, AbChoice>> = {
      ArrowLeft: shown === "A" ? "B" : "A",
      ArrowRight: shown === "A" ? "B" : "A",
      Home: "A",
      End: "B",
    };
    const side = next[event.key];
    if (!side || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(side, true);
  };

  return (
    <div className="ab-columns" ref={columns} data-shown={shown}>
      <div className="ab-tabs" role="tablist" aria-label="Conversations">
        {SIDES.map((side) => (
          <button
            key={side}
            ref={(el) => {
              tabRefs.current[side] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${side}`}
            className="ab-tab"
            aria-selected={shown === side}
            aria-controls={`${base}-panel-${side}`}
            tabIndex={shown === side ? 0 : -1}
            onClick={() => show(side, false)}
            onKeyDown={onTabKey}
          >
            Conversation {side}
            {choice === side ? <span className="ab-tab-chosen"> · chosen</span> : null}
          </button>
        ))}
      </div>
      {SIDES.map((side) => (
        // Focusable so a keyboard can scroll the box it scrolls in (and, as a tab panel, reach it).
        <section
          key={side}
          id={`${base}-panel-${side}`}
          className={`ab-side${choice === side ? " chosen" : ""}`}
          role={tabs ? "tabpanel" : "region"}
          aria-labelledby={tabs ? `${base}-tab-${side}` : `${base}-side-${side}`}
          data-side={side}
          tabIndex={0}
        >
          <h3 id={`${base}-side-${side}`}>Conversation {side}</h3>
          <TaskDialogue
            turns={side === "A" ? conversationA : conversationB}
            partyOrder={partyOrder}
            label={`Conversation ${side}`}
            targetPartyId={targetPartyId}
          />
        </section>
      ))}
    </div>
  );
}

/**
 * Whether a media query matches, following changes (a phone turned sideways). False on the server
 * and on the first client render, so hydration matches; CSS lays out the first paint by itself.
 */
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}
