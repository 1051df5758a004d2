/**
 * The client's answer status, a closed set:
 * `idle` (nothing asked yet) → `submitted` (request sent, nothing back) → `streaming`
 * (the answer is arriving) → `ready` (done, or stopped by the visitor) or `error`.
 */
export const CLIENT_STATUSES = ['idle', 'submitted', 'streaming', 'ready', 'error'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** The only ways the status changes. */
export type StatusTransition = 'submit' | 'receive' | 'finish' | 'fail' | 'stop';

const BUSY: readonly ClientStatus[] = ['submitted', 'streaming'];

const TRANSITIONS: Record<StatusTransition, { from: readonly ClientStatus[]; to: ClientStatus }> = {
  submit: { from: CLIENT_STATUSES, to: 'submitted' },
  receive: { from: BUSY, to: 'streaming' },
  finish: { from: BUSY, to: 'ready' },
  fail: { from: BUSY, to: 'error' },
  stop: { from: BUSY, to: 'ready' },
};

/** The status after `transition`, or null when it does not apply in `current` (e.g. `receive` after `finish`). */
export function nextStatus(current: ClientStatus, transition: StatusTransition): ClientStatus | null {
  const rule = TRANSITIONS[transition];
  return rule.from.includes(current) ? rule.to : null;
}

export function isBusy(status: ClientStatus): boolean {
  return BUSY.includes(status);
}
