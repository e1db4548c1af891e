/**
 * A one-line progress bar on a terminal (stderr), redrawn in place. On
 * anything that is not a terminal it prints nothing, so stdout stays pure JSON.
 * Without a total (an export does not count first) it shows the count alone.
 */
export class ProgressBar {
  private readonly enabled: boolean;
  private lastDraw = 0;

  constructor(
    private readonly total: number | undefined,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly unit = 'contacts',
  ) {
    this.enabled = Boolean(stream.isTTY);
  }

  /** Redraws at most ten times a second; `last` draws anyway (the final count). */
  update(done: number, detail: string, last = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!last && now - this.lastDraw < 100 && (this.total === undefined || done < this.total)) return;
    this.lastDraw = now;
    if (this.total === undefined) {
      this.stream.write(`\r${done} ${this.unit}${detail ? ` · ${detail}` : ''}\u001b[K`);
      return;
    }
    const width = 30;
    const ratio = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const filled = Math.round(ratio * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
    this.stream.write(`\r${bar} ${percent} ${done}/${this.total} ${this.unit} · ${detail}\u001b[K`);
  }

  finish(): void {
    if (this.enabled) this.stream.write('\n');
  }
}
