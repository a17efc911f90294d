// The site policy one link enforces: the safe default (every site `ask`) until the core's policy frame arrives, then
// whatever the latest frame that parses says.
import { DEFAULT_POLICY, type Policy } from '../../shared/policy/policy.js';
import { policyFromTransfer, type PolicyTransfer } from '../../shared/policy/transfer.js';

/** One link's site policy: as it stands, and when the core's first one came. */
export interface LinkPolicy {
  current(): Policy;
  /**
   * Settles once the core's first policy is in force. What is judged only once, not before each step (a window kept
   * from before a re-attach, followed again or refused for good), waits for it: the safe default refuses every site.
   */
  readonly loaded: Promise<void>;
}

export class PolicyHolder implements LinkPolicy {
  private policy: Policy = DEFAULT_POLICY;
  private settle: () => void = () => undefined;
  readonly loaded = new Promise<void>((resolve) => (this.settle = resolve));

  current(): Policy {
    return this.policy;
  }

  /**
   * Takes the core's policy whole. One whose rules do not parse is refused whole too: half a policy could drop the very
   * `blocked` rule that mattered, so the previous one stays in force. Never throws: it runs in the socket's handler.
   */
  update(transfer: PolicyTransfer): void {
    try {
      this.policy = policyFromTransfer(transfer);
      this.settle();
    } catch (error) {
      console.warn(
        `chrome-mcp: kept the previous site policy; the core sent one that does not parse: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
