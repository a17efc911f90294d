// Liveness of the extension link: an app-level ping every interval (it also keeps the MV3 worker awake, which
// protocol-level pings do not), and the link declared dead after two pings in a row go unanswered.
export class Heartbeat {
  private readonly timer: ReturnType<typeof setInterval>;
  private awaiting = false;
  private missed = 0;

  constructor(
    intervalMs: number,
    private readonly ping: () => void,
    private readonly dead: () => void,
  ) {
    this.timer = setInterval(() => this.tick(), intervalMs);
    // The listening socket keeps the process up; a heartbeat alone must not.
    this.timer.unref();
  }

  pong(): void {
    this.awaiting = false;
    this.missed = 0;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    if (this.awaiting && ++this.missed >= 2) {
      this.stop();
      this.dead();
      return;
    }
    this.awaiting = true;
    this.ping();
  }
}
