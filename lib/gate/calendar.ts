import type { WorldState } from "./facts";
import { sideEffect } from "./sideEffect";

/** What the calendar backend receives: exactly these three fields, taken from known facts. */
export interface BookingRequest {
  user_id: unknown;
  resource_id: unknown;
  action_date: unknown;
}

/** The raw calendar SDK. Hand it to `createGatedCalendar` and keep no other reference to it. */
export interface CalendarClient<R = unknown> {
  book(request: BookingRequest): R;
}

const REQUIRED = ["user_id", "resource_id", "action_date"] as const;

/**
 * "If book_slot can be imported around the wrapper, you lost." This module exports no raw client and no
 * ungated booking function: the client lives only in this closure, and the one way to reach it is
 * `bookSlot(state)`, gated on user_id, resource_id and action_date. It takes no model arguments; what it
 * books comes only from the state's known facts.
 */
export function createGatedCalendar<R>(client: CalendarClient<R>): {
  readonly bookSlot: (state: WorldState) => R;
} {
  const book = sideEffect(
    REQUIRED,
    (state: WorldState): R =>
      client.book({
        user_id: state.user_id.value,
        resource_id: state.resource_id.value,
        action_date: state.action_date.value,
      }),
  );
  return Object.freeze({ bookSlot: (state: WorldState): R => book(state) });
}
