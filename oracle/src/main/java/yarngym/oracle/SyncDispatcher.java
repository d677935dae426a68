package yarngym.oracle;

import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The RM's dispatcher, replaced: events are queued and the driver drains the
 * queue (FIFO) after each step of its own, on its one thread. The handlers
 * the RM registers are not used; the driver routes each event itself
 * ({@link Sim#route}), so no RM-side state machine (RMAppImpl,
 * RMAppAttemptImpl, RMNodeImpl, AMLauncher) runs.
 */
final class SyncDispatcher implements Dispatcher {
  private final ArrayDeque<Event> queue = new ArrayDeque<>();
  private final EventHandler<Event> handler = queue::addLast;
  private Consumer<Event> router;
  private boolean draining;

  void setRouter(Consumer<Event> r) {
    router = r;
  }

  @Override
  public EventHandler<Event> getEventHandler() {
    return handler;
  }

  @SuppressWarnings("rawtypes")
  @Override
  public void register(Class<? extends Enum> eventType, EventHandler h) {
    // The driver routes events itself (Sim.route).
  }

  /** Delivers queued events (and those they queue) in order. */
  void drain() {
    if (draining) {
      return; // the outer drain delivers them
    }
    draining = true;
    try {
      Event e;
      while ((e = queue.pollFirst()) != null) {
        router.accept(e);
      }
    } finally {
      draining = false;
    }
  }

  boolean isEmpty() {
    return queue.isEmpty();
  }
}
