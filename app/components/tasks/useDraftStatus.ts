/**
 * What the annotator is told about the draft autosave: saving, saved (and when), or not saved and being retried. A
 * failed save (a busy database answers 503) is sent again a few seconds later, a few times, then left with its message.
 * The state starts over with each item, so a new item never shows the last one's "saved".
 */
import { useEffect, useRef, useState } from "react";

export type DraftStatus =
  | { phase: "idle" }
  | { phase: "saving" }
  | { phase: "saved"; at: number }
  | { phase: "retrying"; message: string }
  | { phase: "failed"; message: string };

interface DraftFetcher {
  state: "idle" | "loading" | "submitting";
  data?: { ok: boolean; message?: string } | undefined;
}

const RETRY_MS = 3000;
const MAX_RETRIES = 5;

export function useDraftStatus(fetcher: DraftFetcher, itemId: number, resend: () => void): DraftStatus {
  const [status, setStatus] = useState<DraftStatus>({ phase: "idle" });
  const retries = useRef(0);
  const wasBusy = useRef(false);
  const resendRef = useRef(resend);
  resendRef.current = resend;

  useEffect(() => {
    retries.current = 0;
    wasBusy.current = false;
    setStatus({ phase: "idle" });
  }, [itemId]);

  const busy = fetcher.state !== "idle";
  const data = fetcher.data;
  useEffect(() => {
    if (busy) {
      wasBusy.current = true;
      setStatus((s) => (s.phase === "retrying" ? s : { phase: "saving" }));
      return;
    }
    // Only the answer to a post made for this item counts (the fetcher keeps the last item's answer).
    if (!wasBusy.current || !data) return;
    wasBusy.current = false;
    if (data.ok) {
      retries.current = 0;
      setStatus({ phase: "saved", at: Date.now() });
      return;
    }
    const message = data.message ?? "The draft could not be saved.";
    if (retries.current >= MAX_RETRIES) {
      setStatus({ phase: "failed", message });
      return;
    }
    retries.current += 1;
    setStatus({ phase: "retrying", message });
    const timer = setTimeout(() => resendRef.current(), RETRY_MS);
    return () => clearTimeout(timer);
  }, [busy, data]);

  return status;
}
