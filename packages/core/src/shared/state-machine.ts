import { errors } from './errors';

/**
 * A transition table as data (Vendure style): for every state, the states it may move to.
 * A state with an empty `to` list is terminal.
 */
export type TransitionTable<S extends string> = { readonly [K in S]: { readonly to: readonly S[] } };

/**
 * A guard refines the table with a rule that depends on context. It returns the reason the move
 * is refused, or `undefined` when it is allowed. Guards never throw.
 */
export type TransitionGuard<S extends string, C> = (
  from: S,
  to: S,
  context: C | undefined,
) => string | undefined;

/** A state machine: a subject (used in messages, e.g. `order`), its states, table and optional guard. */
export interface StateMachine<S extends string, C = never> {
  readonly subject: string;
  readonly states: readonly S[];
  readonly transitions: TransitionTable<S>;
  readonly guard?: TransitionGuard<S, C>;
}

/** The outcome of checking a move: allowed, or refused with a human-readable reason. */
export type TransitionCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const ALLOWED: TransitionCheck = Object.freeze({ ok: true });

/** Whether `state` is one of the machine's states (runtime input may carry any string). */
export function isKnownState<S extends string>(
  machine: Pick<StateMachine<S>, 'transitions'>,
  state: string,
): state is S {
  return Object.hasOwn(machine.transitions, state);
}

/**
 * Checks a move against the table, then against the guard. Pure: returns a reason instead of
 * throwing. A move to the same state is a move like any other (allowed only if listed).
 *
 * @example checkTransition(orderMachine, 'pending', 'confirmed') // { ok: true }
 * @example checkTransition(orderMachine, 'completed', 'cancelled') // { ok: false, reason: "'completed' is terminal" }
 */
export function checkTransition<S extends string, C>(
  machine: StateMachine<S, C>,
  from: S,
  to: S,
  context?: C,
): TransitionCheck {
  if (!isKnownState(machine, from))
    return { ok: false, reason: `'${from}' is not a ${machine.subject} state` };
  if (!isKnownState(machine, to)) return { ok: false, reason: `'${to}' is not a ${machine.subject} state` };
  const allowed = machine.transitions[from].to;
  if (allowed.length === 0) return { ok: false, reason: `'${from}' is terminal` };
  if (!allowed.includes(to)) {
    return { ok: false, reason: `'${from}' can only move to ${allowed.map((s) => `'${s}'`).join(', ')}` };
  }
  const refused = machine.guard?.(from, to, context);
  return refused === undefined ? ALLOWED : { ok: false, reason: refused };
}

/** `true` when {@link checkTransition} allows the move. */
export function canTransition<S extends string, C>(
  machine: StateMachine<S, C>,
  from: S,
  to: S,
  context?: C,
): boolean {
  return checkTransition(machine, from, to, context).ok;
}

/**
 * Asserts a move is allowed.
 *
 * @throws CommerceError `invalid_state_transition` (409) with `data: { from, to }`; the message
 * ends with the reason the table or guard gave.
 */
export function assertTransition<S extends string, C>(
  machine: StateMachine<S, C>,
  from: S,
  to: S,
  context?: C,
): void {
  const check = checkTransition(machine, from, to, context);
  if (check.ok) return;
  const error = errors.invalidTransition(machine.subject, from, to);
  error.message = `${error.message}: ${check.reason}`;
  throw error;
}

/** The states `from` may move to according to the table alone (guards not applied). */
export function nextStates<S extends string, C>(machine: StateMachine<S, C>, from: S): readonly S[] {
  return isKnownState(machine, from) ? machine.transitions[from].to : [];
}

/** A terminal state has no outgoing moves. */
export function isTerminalState<S extends string, C>(machine: StateMachine<S, C>, state: S): boolean {
  return nextStates(machine, state).length === 0;
}

/** The states from which `to` can be reached in one listed move (guards not applied). */
export function statesLeadingTo<S extends string, C>(machine: StateMachine<S, C>, to: S): S[] {
  return machine.states.filter((s) => machine.transitions[s].to.includes(to));
}
