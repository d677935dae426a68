package yarngym.oracle;

import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.server.resourcemanager.NodesListManager;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.security.AMRMTokenSecretManager;
import org.apache.hadoop.yarn.server.resourcemanager.security.NMTokenSecretManagerInRM;
import org.apache.hadoop.yarn.server.resourcemanager.security.RMContainerTokenSecretManager;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Timer;

/**
 * Stops the background timers that ResourceManager.init() starts although
 * the RM is never started (java.util.Timer starts its thread when built):
 * the node-removal and decommissioning-watcher timers (periodic tasks over
 * inactive and decommissioning nodes, of which there are none), the idle
 * timers of the token secret managers and of the scheduler's release cache,
 * and the metrics system's snapshot timer. None of them touches a
 * scheduling decision; they are stopped so that nothing but the driver's
 * thread runs during a simulation.
 */
final class Quiesce {
  private Quiesce() {
  }

  /** Cancels the timers; returns what it could not reach (for diagnosis). */
  static List<String> timers(RMContext ctx, AbstractYarnScheduler<?, ?> sched) {
    List<String> missed = new ArrayList<>();
    cancel(ctx.getNodesListManager(), NodesListManager.class, "removalTimer", missed);
    ResourceTrackerService rts = ctx.getResourceTrackerService();
    Object watcher = get(rts, ResourceTrackerService.class, "decommissioningWatcher", missed);
    if (watcher != null) {
      cancel(watcher, watcher.getClass(), "pollTimer", missed);
    }
    cancel(ctx.getContainerTokenSecretManager(), RMContainerTokenSecretManager.class, "timer", missed);
    cancel(ctx.getNMTokenSecretManager(), NMTokenSecretManagerInRM.class, "timer", missed);
    cancel(ctx.getAMRMTokenSecretManager(), AMRMTokenSecretManager.class, "timer", missed);
    cancel(sched, AbstractYarnScheduler.class, "releaseCache", missed);
    try {
      DefaultMetricsSystem.instance().stop();
    } catch (RuntimeException e) {
      missed.add("metrics system: " + e);
    }
    return missed;
  }

  private static Object get(Object owner, Class<?> cls, String field, List<String> missed) {
    if (owner == null) {
      missed.add(cls.getSimpleName() + "." + field + " (no owner)");
      return null;
    }
    try {
      Field f = cls.getDeclaredField(field);
      f.setAccessible(true);
      return f.get(owner);
    } catch (ReflectiveOperationException | RuntimeException e) {
      missed.add(cls.getSimpleName() + "." + field + ": " + e);
      return null;
    }
  }

  private static void cancel(Object owner, Class<?> cls, String field, List<String> missed) {
    Object t = get(owner, cls, field, missed);
    if (t instanceof Timer) {
      ((Timer) t).cancel();
    } else if (t != null) {
      missed.add(cls.getSimpleName() + "." + field + " is not a Timer");
    }
  }
}
