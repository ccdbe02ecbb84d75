/** A crowd study's channel panels on its dashboard, in the registry's order, each with its own form's last reply. */
import { CHANNEL_COMPONENTS } from "./registry.tsx";

interface Props {
  studyId: number;
  /** What each channel's server half loaded for its panel, by channel id. */
  panels: Record<string, unknown>;
  /** The last reply to a channel panel's form (ChannelActionData as JSON: `result` may be absent). */
  reply: { panel: { channel: string; result?: unknown } | null; error: string | null } | null;
}

export function ChannelPanels({ studyId, panels, reply }: Props) {
  return (
    <>
      {Object.entries(CHANNEL_COMPONENTS).map(([id, components]) => {
        const Panel = components?.panel;
        if (!Panel || !(id in panels)) return null;
        const result = reply?.panel?.channel === id ? (reply.panel.result ?? null) : null;
        return <Panel key={id} studyId={studyId} data={panels[id]} result={result} />;
      })}
      {reply?.error ? <p className="form-error">{reply.error}</p> : null}
    </>
  );
}
