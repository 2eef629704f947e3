package io.gpufleet.sim;

import io.gpufleet.sim.kernel.Event;

/**
 * Wrapped around the handling of each event of a run, so that a benchmark can tell what each kind
 * of event costs (the disruption polls, one per interval whatever the fleet, apart from the events
 * the fleet brings). It must call {@code handling} exactly once; it never changes the run.
 */
@FunctionalInterface
public interface EventObserver {

  EventObserver NONE = (event, handling) -> handling.run();

  void around(Event event, Runnable handling);
}
