package yarngym.oracle;

import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

/**
 * Hadoop's ResourceManager with the driver's dispatcher and scheduler. Only
 * {@code init} is ever called, never {@code start}: no RPC server, web app,
 * scheduler update thread, continuous-scheduling, preemption, monitor or
 * async-scheduling thread runs. Scheduler events go to the scheduler
 * synchronously, on the driver's thread.
 */
final class SimRM extends ResourceManager {
  /** The fixed cluster time stamp: application ids are the same run to run. */
  static final long CLUSTER_TIMESTAMP = 1_000_000_000_000L;

  private final SyncDispatcher dispatcher;
  private final AbstractYarnScheduler<?, ?> theScheduler;

  SimRM(SyncDispatcher dispatcher, AbstractYarnScheduler<?, ?> scheduler) {
    this.dispatcher = dispatcher;
    this.theScheduler = scheduler;
    setClusterTimeStamp(CLUSTER_TIMESTAMP);
  }

  @Override
  protected Dispatcher createDispatcher() {
    return dispatcher;
  }

  @Override
  protected ResourceScheduler createScheduler() {
    return theScheduler;
  }

  @Override
  protected EventHandler<SchedulerEvent> createSchedulerEventDispatcher() {
    return theScheduler::handle;
  }

  /** The Fair Scheduler whose update interval the driver reads (the protected field it sets in initScheduler). */
  static final class Fair extends FairScheduler {
    long updateIntervalMs() {
      return updateInterval;
    }
  }
}
