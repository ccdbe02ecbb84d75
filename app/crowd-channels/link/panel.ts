/** The reply to the dashboard's "make a link" form. */
export interface LinkPanelResult {
  /** The signed link just made. */
  link: string | null;
  error: string | null;
}
