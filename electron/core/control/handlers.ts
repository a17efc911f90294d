// What each control call does, one line per call over the hub's parts; inputs arrive already parsed by the declaration.
import {
  SHOTS_KEPT,
  type ControlArgs,
  type ControlCall,
  type ControlOutput,
  type Status,
} from '../../../shared/control/api.js';
import { ControlError } from '../../../shared/control/errors.js';
import type { PolicyView } from '../../../shared/control/policy-view.js';
import { BLIND_SITES } from '../../../shared/policy/blind.js';
import { policyToTransfer } from '../../../shared/policy/transfer.js';
import type { Activity } from './activity.js';
import type { AuditLog } from './audit-log.js';
import type { HeldActs } from './held-acts.js';
import type { Oversight } from './oversight.js';
import type { Pairing } from './pairing-control.js';
import type { PolicyStore } from './policy-store.js';
import type { Questions } from './questions.js';
import type { Shots } from './shots.js';

export type Handlers = { [N in ControlCall]: (args: ControlArgs<N>) => ControlOutput<N> | Promise<ControlOutput<N>> };

export interface HandlerParts {
  activity: Activity;
  audit: AuditLog;
  held: HeldActs;
  oversight: Oversight;
  pairing: Pairing;
  policy: PolicyStore;
  questions: Questions;
  shots: Shots;
  status(): Promise<Status>;
}

export function controlHandlers({
  activity,
  audit,
  held,
  oversight,
  pairing,
  policy,
  questions,
  shots,
  status,
}: HandlerParts): Handlers {
  return {
    status: () => status(),
    'activity.list': ({ since, limit }) => activity.list(since, limit),
    'activity.shot': ({ id }) => {
      const shot = shots.get(id);
      if (!shot)
        throw new ControlError(
          'NOT_FOUND',
          `No image kept for call "${id}": only the newest ${SHOTS_KEPT} calls' images are, and only calls flagged \`shot\` had one.`,
        );
      return shot;
    },
    'policy.get': () => policyView(policy),
    'policy.set': (edit) => {
      policy.setStanding(edit);
      return policyView(policy);
    },
    'questions.list': () => ({ questions: questions.list() }),
    'questions.answer': (input) => {
      questions.answer(input);
      return { questions: questions.list() };
    },
    'held.list': () => ({ held: held.list() }),
    'held.decide': async ({ id, release }) => ({ ...(await held.decide(id, release)), held: held.list() }),
    'plan.get': () => ({ plan: oversight.plan() }),
    'plan.approve': () => ({ plan: oversight.approvePlan() }),
    interject: ({ message }) => ({ queued: oversight.interject(message) }),
    stop: ({ message }) => {
      oversight.stop(message);
      return status();
    },
    resume: () => {
      oversight.resume();
      return status();
    },
    'audit.read': async (filter) => ({ entries: await audit.read(filter) }),
    'pairing.status': () => pairing.status(),
    'pairing.code': () => {
      const issued = pairing.issueCode();
      // Only that one was issued: the code goes to the person who asked, never into the stream.
      activity.emit({ type: 'pairing', change: 'code-issued' });
      return issued;
    },
    'pairing.revoke': async () => {
      await pairing.revoke();
      activity.emit({ type: 'pairing', change: 'revoked' });
      return pairing.status();
    },
  };
}

function policyView(store: PolicyStore): PolicyView {
  const { rules, grants, default: fallback, downloads, tools } = policyToTransfer(store.current());
  const blind = Object.fromEntries(Object.entries(BLIND_SITES).map(([group, sites]) => [group, [...sites]]));
  return { rules, default: fallback, downloads, tools, grants, blind, file: store.file };
}
