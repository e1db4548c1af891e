/**
 * A one-line progress bar on a terminal (stderr), redrawn in place. On
 * anything that is not a terminal it prints nothing, so stdout stays pure JSON.
 */
export class ProgressBar {
  private readonly enabled: boolean;
  private lastDraw = 0;

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.enabled = Boolean(stream.isTTY);
  }

  update(done: number, detail: string): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.lastDraw < 100 && done < this.total) return; // at most ten redraws a second
    this.lastDraw = now;
    const width = 30;
    const ratio = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const filled = Math.round(ratio * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
    this.stream.write(`\r${bar} ${percent} ${done}/${this.total} contacts · ${detail}\u001b[K`);
  }

  finish(): void {
    if (this.enabled) this.stream.write('\n');
  }
}
