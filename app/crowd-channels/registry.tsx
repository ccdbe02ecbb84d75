/**
 * The crowd channels' components, by channel id (one line per channel that has any): its panel on
 * a crowd study's dashboard (shown with what its server half's `dashboard.load` returned) and the
 * end page /crowd/done shows when its completion has an `endView`.
 */
import type { ComponentType } from "react";
import { CrowdLinkSection } from "./link/CrowdLinkSection.tsx";
import type { ChannelPanelProps, EndPageData } from "./panel.ts";
import { ProlificEndPage } from "./prolific/ProlificEndPage.tsx";
import { ProlificPanel } from "./prolific/ProlificPanel.tsx";
import type { CrowdChannelId } from "./registry.ts";

export interface ChannelComponents {
  panel?: ComponentType<ChannelPanelProps>;
  endPage?: ComponentType<{ data: EndPageData }>;
}

/** A panel typed by its own data and reply; the registry meets it with what that channel's server half sent. */
const panel = <Data, Result>(component: ComponentType<ChannelPanelProps<Data, Result>>) =>
  component as ComponentType<ChannelPanelProps>;

/** In the dashboard's order. */
export const CHANNEL_COMPONENTS: Partial<Record<CrowdChannelId, ChannelComponents>> = {
  link: { panel: panel(CrowdLinkSection) },
  prolific: { panel: panel(ProlificPanel), endPage: ProlificEndPage },
};
