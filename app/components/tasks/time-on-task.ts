/** A stopwatch that runs only while the page is visible: the core of useTimeOnTask. */
export class VisibleClock {
  private accumulatedMs = 0;
  private visibleSince: number | null;

  constructor(now: number, visible: boolean) {
    this.visibleSince = visible ? now : null;
  }

  setVisible(visible: boolean, now: number): void {
    if (visible && this.visibleSince === null) this.visibleSince = now;
    if (!visible && this.visibleSince !== null) {
      this.accumulatedMs += Math.max(0, now - this.visibleSince);
      this.visibleSince = null;
    }
  }

  elapsedMs(now: number): number {
    return this.accumulatedMs + (this.visibleSince === null ? 0 : Math.max(0, now - this.visibleSince));
  }

  reset(now: number, visible: boolean): void {
    this.accumulatedMs = 0;
    this.visibleSince = visible ? now : null;
  }
}
