/**
 * What a channel's components receive (registry.tsx): its dashboard panel gets what its server
 * half loaded and its last form reply; its end page (channels with a completion code) the end of
 * the worker's session. Pure, shared by the routes, the server halves and the components.
 */
export interface ChannelPanelProps<Data = unknown, Result = unknown> {
  studyId: number;
  data: Data;
  /** The reply to this panel's own form post, when it was the one posted. */
  result: Result | null;
}

/** The dashboard's action reply for the channel panels. */
export interface ChannelActionData {
  /** The panel (by channel id) whose form was posted, and its reply. */
  panel: { channel: string; result: unknown } | null;
  /** An intent no panel answers. */
  error: string | null;
}

export const NO_ACTION_DATA: ChannelActionData = { panel: null, error: null };

/** What /crowd/done shows a worker whose channel ends with a completion code. */
export type EndPageData =
  | { state: "complete"; name: string; code: string; url: string; labels: number }
  /** The reading test's attempts are used up: no code. */
  | { state: "not-qualified"; name: string; attempts: number };
