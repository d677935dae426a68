package yarngym.oracle;

import org.apache.hadoop.yarn.util.Clock;

/** The simulated clock: integer milliseconds, moved only by the driver. */
final class SimClock implements Clock {
  private long now;

  @Override
  public long getTime() {
    return now;
  }

  void set(long t) {
    if (t < now) {
      throw new IllegalStateException("simulated time going back: " + t + " < " + now);
    }
    now = t;
  }
}
