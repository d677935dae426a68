package yarngym.oracle;

import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException;
import org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes;
import org.apache.hadoop.yarn.server.resourcemanager.ClusterMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.RMFatalEvent;
import org.apache.hadoop.yarn.server.resourcemanager.RMServerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.event.RMAppAttemptContainerFinishedEvent;
import org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeCleanContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * One run: Hadoop's ResourceManager with its own FairScheduler or
 * CapacityScheduler, and the node managers and ApplicationMasters the
 * driver plays, in simulated time on one thread.
 *
 * <p>Events are ordered by (time, kind, key, sequence). Kinds at one instant,
 * in this order:
 * <ol>
 * <li>task process exits (key: job, stage, task), which the AM learns at once;</li>
 * <li>reducers' shuffle event polls (same key);</li>
 * <li>job submissions (key: job);</li>
 * <li>the AMs' periodic check for reducer preemption (every am_tick_ms);</li>
 * <li>AM heartbeats: allocate() calls (key: job);</li>
 * <li>NM heartbeats, in node order;</li>
 * <li>the Fair Scheduler's update() (every yarn.scheduler.fair.update-interval-ms);</li>
 * <li>the CapacityScheduler's preemption monitor, when switched on
 * (ProportionalCapacityPreemptionPolicy.editSchedule, every
 * yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval).</li>
 * </ol>
 * After each event the dispatcher's queue is drained.
 */
public final class Sim implements AutoCloseable {
  static final String USER = "yarngym";
  /** No allocation and no task end for this long, with no task running: the run is stuck. */
  static final long STALL_MS = 3_600_000L;

  static final int EV_TASK_END = 0;
  static final int EV_POLL = 1;
  static final int EV_SUBMIT = 2;
  static final int EV_AM_TICK = 3;
  static final int EV_AM_BEAT = 4;
  static final int EV_NM_BEAT = 5;
  static final int EV_FAIR_UPDATE = 6;
  static final int EV_MONITOR = 7;

  private static final class Ev implements Comparable<Ev> {
    final long t;
    final int kind;
    final long key;
    final long seq;
    final Object ref;

    Ev(long t, int kind, long key, long seq, Object ref) {
      this.t = t;
      this.kind = kind;
      this.key = key;
      this.seq = seq;
      this.ref = ref;
    }

    @Override
    public int compareTo(Ev o) {
      int c = Long.compare(t, o.t);
      if (c == 0) {
        c = Integer.compare(kind, o.kind);
      }
      if (c == 0) {
        c = Long.compare(key, o.key);
      }
      if (c == 0) {
        c = Long.compare(seq, o.seq);
      }
      return c;
    }
  }

  /** A job at run time: its RM stand-ins, its AM and what the output needs. */
  static final class JobRun {
    final Sim sim;
    final int idx;
    final Doc.Job spec;
    StandIns si;
    AppMaster am;
    Container amContainer;
    SimNode amNode;
    long amStart = -1;
    long firstStart = -1;
    long finishMs = -1;
    boolean removed;
    int tasksLeft;
    final int[] stageDone;
    final List<List<TaskRun>> running = new ArrayList<>(); // per stage: attempts in containers
    private final List<ContainerStatus> finished = new ArrayList<>();

    JobRun(Sim sim, int idx, Doc.Job spec) {
      this.sim = sim;
      this.idx = idx;
      this.spec = spec;
      this.tasksLeft = spec.taskCount();
      this.stageDone = new int[spec.stages.size()];
      for (int i = 0; i < spec.stages.size(); i++) {
        running.add(new ArrayList<>());
      }
    }

    List<ContainerStatus> pullFinished() {
      List<ContainerStatus> out = new ArrayList<>(finished);
      finished.clear();
      return out;
    }

    boolean managed() {
      return spec.am != null;
    }
  }

  /** Counts for the cost summary and for tests. */
  static final class Stats {
    long containers; // containers started (AMs and tasks)
    long reducersPreempted;
    long containersPreempted; // by the RM's preemption monitor
    long events;
    long droppedEvents;
    final Map<String, Long> routed = new TreeMap<>();
  }

  /** One ended task attempt, or an AM. */
  static final class Rec {
    final int job;
    final String kind;
    final int stage;
    final int index;
    final int attempt;
    final int node;
    final String locality;
    final long start;
    final long end;
    final String outcome;

    Rec(int job, String kind, int stage, int index, int attempt, int node, String locality, long start, long end,
        String outcome) {
      this.job = job;
      this.kind = kind;
      this.stage = stage;
      this.index = index;
      this.attempt = attempt;
      this.node = node;
      this.locality = locality;
      this.start = start;
      this.end = end;
      this.outcome = outcome;
    }
  }

  /** The scheduler could not take a job or a request: reported as bad input. */
  static final class Refused extends RuntimeException {
    final String key;

    Refused(String key, String msg) {
      super(msg);
      this.key = key;
    }
  }

  final Doc doc;
  final String docName;
  final SimClock clock = new SimClock();
  final SyncDispatcher dispatcher = new SyncDispatcher();
  final Stats stats = new Stats();
  SimRM rm;
  AbstractYarnScheduler<?, ?> sched;
  SimRM.Fair fair;
  RMContext ctx;
  final SimNode[] nodes;
  private final Map<NodeId, SimNode> byNodeId = new HashMap<>();
  final JobRun[] jobs;
  private final Map<ApplicationAttemptId, JobRun> byAttempt = new HashMap<>();
  private final Map<ContainerId, TaskRun> inContainers = new HashMap<>();
  private final PriorityQueue<Ev> queue = new PriorityQueue<>();
  private long seq;
  private int jobsLeft; // not yet removed
  private int submitted;
  private long lastProgress;
  final List<Rec> records = new ArrayList<>();
  private Path allocTemp;
  long startupMs; // wall-clock ms of set-up (stderr only)
  long runMs; // wall-clock ms of the event loop (stderr only)
  boolean stuck;
  private YarnConfiguration conf;
  private long fairUpdateMs;
  /** The CapacityScheduler's preemption monitor, on the simulated clock (null when off). */
  private ProportionalCapacityPreemptionPolicy pcpp;
  private long monitorMs;
  List<String> quiesceMissed = new ArrayList<>();

  public Sim(Doc doc, String docName) {
    this.doc = doc;
    this.docName = docName;
    this.nodes = new SimNode[doc.nodes.size()];
    this.jobs = new JobRun[doc.jobs.size()];
  }

  // ---- set-up ----

  /** Builds the RM (init only), registers the nodes and queues the first events. */
  public void setUp() throws Doc.BadInput {
    long w0 = System.nanoTime();
    resetStaticState();
    ConfBuilder.Built built = ConfBuilder.build(doc, docName);
    conf = built.yarn;
    allocTemp = built.allocTemp;
    boolean isFair = doc.scheduler.equals("fair");
    if (isFair) {
      fair = new SimRM.Fair();
      sched = fair;
    } else {
      sched = new CapacityScheduler();
    }
    sched.setClock(clock);
    if (sched instanceof Configurable) {
      ((Configurable) sched).setConf(conf);
    }
    dispatcher.setRouter(this::route);
    rm = new SimRM(dispatcher, sched);
    try {
      rm.init(conf);
    } catch (RuntimeException e) {
      Throwable r = e;
      while (r.getCause() != null && r.getCause() != r) {
        r = r.getCause();
      }
      String key = isFair && (!doc.allocationFile.isEmpty()) ? "allocation_file" : "conf";
      throw new Doc.BadInput(docName, key, "Hadoop's " + (isFair ? "FairScheduler" : "CapacityScheduler")
          + " refused its configuration: " + r.getClass().getSimpleName() + ": " + r.getMessage());
    }
    ctx = rm.getRMContext();
    quiesceMissed = Quiesce.timers(ctx, sched);
    // what RMSecretManagerService.serviceStart does: tokens need a current master key
    ctx.getContainerTokenSecretManager().rollMasterKey();
    ctx.getNMTokenSecretManager().rollMasterKey();
    if (isFair) {
      fairUpdateMs = fair.updateIntervalMs();
    }
    for (int i = 0; i < nodes.length; i++) {
      SimNode n = new SimNode(doc.nodes.get(i), ctx);
      nodes[i] = n;
      byNodeId.put(n.nodeId, n);
      ctx.getRMNodes().put(n.nodeId, n);
      sched.handle(new NodeAddedSchedulerEvent(n));
      dispatcher.drain();
    }
    for (int j = 0; j < jobs.length; j++) {
      jobs[j] = new JobRun(this, j, doc.jobs.get(j));
      push(jobs[j].spec.submitMs, EV_SUBMIT, j, jobs[j]);
    }
    jobsLeft = jobs.length;
    for (SimNode n : nodes) {
      push(n.spec.firstHeartbeatMs, EV_NM_BEAT, n.spec.id, n);
    }
    if (isFair) {
      push(doc.model.fairUpdateFirstMs, EV_FAIR_UPDATE, 0, null);
    }
    if (!isFair && conf.getBoolean("yarn.resourcemanager.scheduler.monitor.enable", false)) {
      // The policy's test constructor takes a clock: the simulated one. The
      // CapacityScheduler's own SchedulingMonitor is built by init but never
      // started (no thread); this one runs at the model's first monitor time
      // and then every monitoring_interval.
      pcpp = new ProportionalCapacityPreemptionPolicy(ctx, (CapacityScheduler) sched, clock);
      monitorMs = pcpp.getMonitoringInterval();
      push(doc.model.monitorFirstMs, EV_MONITOR, 0, null);
    }
    push(doc.model.amTickMs, EV_AM_TICK, 0, null);
    startupMs = (System.nanoTime() - w0) / 1_000_000;
  }

  /** Hadoop's static metrics, reset as its own tests do, so that several runs share a JVM. */
  static void resetStaticState() {
    DefaultMetricsSystem.setMiniClusterMode(true);
    QueueMetrics.clearQueueMetrics();
    ClusterMetrics.destroy();
  }

  @Override
  public void close() {
    if (rm != null) {
      try {
        rm.stop(); // cancels the scheduler's idle release-cache Timer thread
      } catch (RuntimeException e) {
        // best effort
      }
    }
    DefaultMetricsSystem.shutdown();
    QueueMetrics.clearQueueMetrics();
    ClusterMetrics.destroy();
    if (allocTemp != null) {
      try {
        Files.deleteIfExists(allocTemp);
      } catch (IOException e) {
        // best effort
      }
    }
  }

  // ---- the event loop ----

  private void push(long t, int kind, long key, Object ref) {
    queue.add(new Ev(t, kind, key, seq++, ref));
  }

  public void run() {
    long w0 = System.nanoTime();
    while (!queue.isEmpty() && jobsLeft > 0) {
      Ev e = queue.poll();
      clock.set(e.t);
      stats.events++;
      switch (e.kind) {
        case EV_TASK_END:
          taskEnded((TaskRun) e.ref);
          break;
        case EV_POLL:
          polled((TaskRun) e.ref);
          break;
        case EV_SUBMIT:
          submit((JobRun) e.ref);
          break;
        case EV_AM_TICK:
          for (JobRun j : jobs) {
            if (j.am != null && j.finishMs < 0) {
              j.am.tick(e.t);
            }
          }
          dispatcher.drain();
          push(e.t + doc.model.amTickMs, EV_AM_TICK, 0, null);
          break;
        case EV_AM_BEAT: {
          JobRun j = (JobRun) e.ref;
          if (j.finishMs < 0) {
            j.am.heartbeat(e.t);
            dispatcher.drain();
            push(e.t + doc.model.amHeartbeatMs, EV_AM_BEAT, j.idx, j);
          }
          break;
        }
        case EV_NM_BEAT:
          nodeHeartbeat((SimNode) e.ref);
          push(e.t + doc.model.heartbeatMs, EV_NM_BEAT, e.key, e.ref);
          break;
        case EV_FAIR_UPDATE:
          fair.update();
          dispatcher.drain();
          push(e.t + fairUpdateMs, EV_FAIR_UPDATE, 0, null);
          break;
        case EV_MONITOR:
          pcpp.editSchedule();
          dispatcher.drain();
          push(e.t + monitorMs, EV_MONITOR, 0, null);
          break;
        default:
          throw new IllegalStateException("event kind " + e.kind);
      }
      if (submitted == jobs.length && inContainers.isEmpty() && e.t - lastProgress > STALL_MS) {
        stuck = true;
        break;
      }
    }
    runMs = (System.nanoTime() - w0) / 1_000_000;
  }

  // ---- jobs ----

  private String queuePath(Doc.Job j) {
    return j.queue.equals("root") || j.queue.startsWith("root.") ? j.queue : "root." + j.queue;
  }

  private void submit(JobRun j) {
    long now = clock.getTime();
    submitted++;
    ApplicationId appId = ApplicationId.newInstance(SimRM.CLUSTER_TIMESTAMP, j.idx + 1);
    String q = queuePath(j.spec);
    List<ResourceRequest> amReqs = null;
    if (j.managed()) {
      ResourceRequest r = ResourceRequest.newInstance(Priority.newInstance(0), ResourceRequest.ANY,
          Resource.newInstance(j.spec.am.memMb, j.spec.am.vcores), 1, true);
      amReqs = new ArrayList<>(Collections.singletonList(r));
    }
    j.si = new StandIns(appId, j.spec.name, q, USER, now, amReqs, ctx);
    j.am = new AppMaster(this, j);
    byAttempt.put(j.si.attemptId, j);
    ctx.getRMApps().put(appId, j.si.app);
    // RMAppManager placed it (the "specified" rule), RMAppImpl asked the scheduler to add it
    sched.handle(new AppAddedSchedulerEvent(appId, q, USER, new ApplicationPlacementContext(q)));
    dispatcher.drain();
    // RMAppAttemptImpl: the attempt, then (ScheduleTransition) the AM container request
    sched.handle(new AppAttemptAddedSchedulerEvent(j.si.attemptId, false));
    dispatcher.drain();
    simulatedStartTime(j.si.attemptId, now);
    if (j.managed()) {
      List<ResourceRequest> ask = new ArrayList<>();
      for (ResourceRequest r : amReqs) {
        ResourceRequest c = ResourceRequest.clone(r);
        ask.add(c);
      }
      sched.allocate(j.si.attemptId, ask, new ArrayList<SchedulingRequest>(), new ArrayList<ContainerId>(),
          new ArrayList<String>(), new ArrayList<String>(), new ContainerUpdates());
      dispatcher.drain();
    } else {
      // an unmanaged AM: registers and asks at submission
      push(now, EV_AM_BEAT, j.idx, j);
    }
  }

  /**
   * SchedulerApplicationAttempt stamps its start time from the wall clock
   * (SystemClock) in its constructor; the CapacityScheduler's fair ordering
   * policy and its max-running-apps enforcer order apps by it. It is set to
   * the simulated submission time instead (the Fair Scheduler's FSAppAttempt
   * keeps its own start time, from the scheduler's clock: already simulated).
   */
  private void simulatedStartTime(ApplicationAttemptId id, long now) {
    Object a = sched.getApplicationAttempt(id);
    if (a == null) {
      return; // rejected: reported by route()
    }
    try {
      java.lang.reflect.Field f = SchedulerApplicationAttempt.class.getDeclaredField("startTime");
      f.setAccessible(true);
      f.setLong(a, now);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot set the attempt's start time to simulated time", e);
    }
  }

  /** The AM's allocate() call, as ApplicationMasterService (DefaultAMSProcessor) passes it on. */
  Allocation allocate(JobRun j, List<ResourceRequest> ask, List<ContainerId> release) {
    String q = j.si.queue;
    try {
      RMServerUtils.normalizeAndValidateRequests(ask, sched.getMaximumResourceCapability(q), q, sched, ctx, false);
    } catch (InvalidResourceRequestException e) {
      throw new Refused("jobs[" + j.idx + "]", "the RM refused a request: " + e.getMessage());
    }
    Allocation a = sched.allocate(j.si.attemptId, ask, new ArrayList<SchedulingRequest>(), release,
        new ArrayList<String>(), new ArrayList<String>(), new ContainerUpdates());
    dispatcher.drain();
    return a;
  }

  /** The RM's AM launch: RMAppAttemptImpl pulls the AM container and the AMLauncher starts it at once. */
  private void amAllocated(JobRun j) {
    long now = clock.getTime();
    Allocation a = sched.allocate(j.si.attemptId, new ArrayList<ResourceRequest>(), new ArrayList<SchedulingRequest>(),
        new ArrayList<ContainerId>(), new ArrayList<String>(), new ArrayList<String>(), new ContainerUpdates());
    List<Container> cs = a.getContainers();
    if (cs.size() != 1) {
      throw new IllegalStateException("job " + j.idx + ": expected its AM container, got " + cs.size());
    }
    Container c = cs.get(0);
    j.amContainer = c;
    j.si.masterContainer = c;
    // RMAppAttemptImpl.AMContainerAllocatedTransition marks it the AM's: the
    // preemption monitor leaves AM containers for last.
    RMContainer rc = sched.getRMContainer(c.getId());
    if (rc instanceof RMContainerImpl) {
      ((RMContainerImpl) rc).setAMContainer(true);
    }
    j.amNode = node(c.getNodeId());
    j.amStart = now;
    j.amNode.started(c.getId());
    stats.containers++;
    lastProgress = now;
    push(now + (j.spec.amStartupMs > 0 ? j.spec.amStartupMs : doc.model.amStartupMs), EV_AM_BEAT, j.idx, j);
  }

  SimNode node(NodeId id) {
    SimNode n = byNodeId.get(id);
    if (n == null) {
      throw new IllegalStateException("unknown node " + id);
    }
    return n;
  }

  private void finishJob(JobRun j) {
    long now = clock.getTime();
    j.finishMs = now;
    if (j.managed()) {
      j.amNode.exited(j.amContainer.getId(), ContainerExitStatus.SUCCESS, "");
      records.add(new Rec(j.idx, "am", -1, 0, 0, j.amNode.spec.id, "node-local", j.amStart, now, "done"));
      // removed once its node reports the AM container complete (nodeHeartbeat)
    } else {
      removeApp(j);
    }
  }

  /** The attempt finishes and the app is removed (after its AM container's completion was reported). */
  private void removeApp(JobRun j) {
    sched.handle(new AppAttemptRemovedSchedulerEvent(j.si.attemptId, RMAppAttemptState.FINISHED, false));
    dispatcher.drain();
    sched.handle(new AppRemovedSchedulerEvent(j.si.appId, RMAppState.FINISHED));
    dispatcher.drain();
    j.removed = true;
    jobsLeft--;
  }

  // ---- nodes ----

  /** Debug aid (YARNGYM_ORACLE_TRACE=FILE): every container a node heartbeat gives, as it is given. */
  private final java.io.PrintWriter trace = openTrace();
  private final java.util.Set<ContainerId> traced = new java.util.HashSet<>();

  private static java.io.PrintWriter openTrace() {
    String f = System.getenv("YARNGYM_ORACLE_TRACE");
    if (f == null || f.isEmpty()) {
      return null;
    }
    try {
      java.io.PrintWriter w = new java.io.PrintWriter(new java.io.FileWriter(f));
      w.println("time_ms,node,app,priority,mem_mb");
      return w;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void nodeHeartbeat(SimNode n) {
    n.beat();
    sched.handle(new NodeUpdateSchedulerEvent(n));
    dispatcher.drain();
    if (trace != null) {
      java.util.List<org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer> cs =
          new java.util.ArrayList<>(sched.getSchedulerNode(n.getNodeID()).getCopiedListOfRunningContainers());
      cs.sort(java.util.Comparator.comparing(c -> c.getContainerId()));
      for (org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer c : cs) {
        if (traced.add(c.getContainerId())) {
          trace.println(clock.getTime() + "," + n.spec.id + ","
              + (c.getContainerId().getApplicationAttemptId().getApplicationId().getId() - 1) + ","
              + c.getAllocatedSchedulerKey().getPriority().getPriority() + "," + c.getAllocatedResource().getMemorySize());
        }
      }
      org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer r =
          sched.getSchedulerNode(n.getNodeID()).getReservedContainer();
      String res = r == null ? "" : (r.getContainerId().getApplicationAttemptId().getApplicationId().getId() - 1) + ":"
          + r.getReservedSchedulerKey().getPriority().getPriority();
      if (!res.equals(n.tracedReservation)) {
        trace.println(clock.getTime() + "," + n.spec.id + ",R" + (res.isEmpty() ? "-" : res) + ",0,0");
        n.tracedReservation = res;
      }
      trace.flush();
    }
    for (JobRun j : jobs) {
      if (j.finishMs >= 0 && !j.removed && j.amNode == n) {
        removeApp(j);
      }
    }
  }

  // ---- tasks ----

  /** Starts an executor's process in container c with no task yet (partition_executors). */
  void startExecutor(JobRun j, Container c, long now) {
    node(c.getNodeId()).started(c.getId());
    stats.containers++;
    lastProgress = now;
  }

  /** Starts a task attempt in container c: a new container's process, or (reused) an executor's next task. */
  void startTask(JobRun j, int stage, int task, int attempt, Container c, long now, boolean reused) {
    SimNode n = node(c.getNodeId());
    TaskRun tr = new TaskRun(j, stage, task, attempt, n, c, now, doc.model);
    if (!reused) {
      n.started(c.getId());
      stats.containers++;
    }
    inContainers.put(c.getId(), tr);
    j.running.get(stage).add(tr);
    lastProgress = now;
    if (j.firstStart < 0) {
      j.firstStart = now;
    }
    tr.begin(stage > 0 ? j.stageDone[stage - 1] : 0);
    if (tr.end >= 0) {
      push(tr.end, EV_TASK_END, tr.order, tr);
    }
  }

  private void taskEnded(TaskRun tr) {
    if (tr.done) {
      return;
    }
    long now = clock.getTime();
    tr.done = true;
    JobRun j = tr.job;
    inContainers.remove(tr.container.getId());
    j.running.get(tr.stage).remove(tr);
    boolean executor = j.spec.stages.get(tr.stage).partitionExecutors;
    if (!executor) {
      tr.node.exited(tr.container.getId(), ContainerExitStatus.SUCCESS, "");
    }
    records.add(new Rec(j.idx, tr.kindName(), tr.stage, tr.index, tr.attempt, tr.node.spec.id,
        TaskRun.LOCALITY[tr.locality], tr.start, now, "done"));
    lastProgress = now;
    j.stageDone[tr.stage]++;
    j.am.taskFinished(tr.stage);
    if (executor) {
      // the executor's process goes on: the stage's next task, or idle (AppMaster.partitionEnded)
      j.am.partitionEnded(tr.stage, tr.index, tr.container, now);
    }
    // reducers of the next stage learn of it at their next poll
    if (tr.stage + 1 < j.running.size()) {
      for (TaskRun r : j.running.get(tr.stage + 1)) {
        if (r.needsPolls() && r.pollAt < 0) {
          long p = doc.model.shuffleEventPollMs;
          long i = Math.max(1, (now - r.start + p - 1) / p);
          r.pollAt = r.start + i * p;
          push(r.pollAt, EV_POLL, r.order, r);
        }
      }
    }
    if (--j.tasksLeft == 0) {
      j.am.stopExecutors();
      finishJob(j);
    }
  }

  private void polled(TaskRun tr) {
    if (tr.done) {
      return;
    }
    long now = clock.getTime();
    tr.pollAt = -1;
    boolean had = tr.end >= 0;
    tr.poll(now, tr.job.stageDone[tr.stage - 1]);
    if (!had && tr.end >= 0) {
      push(tr.end, EV_TASK_END, tr.order, tr);
    }
  }

  /** The AM stops a task's container (reducer preemption): the process ends now. */
  void killTask(ContainerId cid, long now) {
    TaskRun tr = inContainers.remove(cid);
    if (tr == null || tr.done) {
      throw new IllegalStateException("kill: no task in " + cid);
    }
    tr.done = true;
    tr.killed = true;
    tr.job.running.get(tr.stage).remove(tr);
    tr.node.exited(cid, ContainerExitStatus.KILLED_BY_APPMASTER, "killed by the AM: reducer preemption");
    records.add(new Rec(tr.job.idx, tr.kindName(), tr.stage, tr.index, tr.attempt, tr.node.spec.id,
        TaskRun.LOCALITY[tr.locality], tr.start, now, "killed"));
  }

  /**
   * The RM killed a running task's container (preemption): the scheduler has
   * completed it (PREEMPTED) and freed it in its queue, but frees it on the
   * node only when the node manager reports it complete
   * (SchedulerNode.releaseContainer waits for the node): the node manager
   * stops the process on its next heartbeat and reports it at the one after
   * (SimNode.cleanUp). The work is lost now; the AM learns of it at its next
   * allocate().
   */
  private void preempted(TaskRun tr, ContainerId cid) {
    long now = clock.getTime();
    inContainers.remove(cid);
    tr.done = true;
    tr.killed = true;
    tr.job.running.get(tr.stage).remove(tr);
    tr.node.cleanUp(cid);
    stats.containersPreempted++;
    records.add(new Rec(tr.job.idx, tr.kindName(), tr.stage, tr.index, tr.attempt, tr.node.spec.id,
        TaskRun.LOCALITY[tr.locality], tr.start, now, "killed"));
  }

  /** The idle executor container of id cid (partition_executors), or null. */
  private Container idleExecutorOf(ContainerId cid) {
    for (JobRun j : jobs) {
      if (j.am == null || j.finishMs >= 0) {
        continue;
      }
      for (AppMaster.StageAm s : j.am.stages) {
        for (Container c : s.idle) {
          if (c.getId().equals(cid)) {
            return c;
          }
        }
      }
    }
    return null;
  }

  double progressOf(ContainerId cid, long now) {
    TaskRun tr = inContainers.get(cid);
    return tr == null ? 1 : tr.progress(now);
  }

  EnumSet<SchedulerResourceTypes> schedulerResourceTypes() {
    return sched.getSchedulingResourceTypes();
  }

  /** mapreduce.job.reduce.preemption.limit: from the document's conf, else MapReduce's default 0.5. */
  float reducePreemptionLimit() {
    String v = doc.conf.get("mapreduce.job.reduce.preemption.limit");
    if (v == null) {
      return 0.5f;
    }
    try {
      return Float.parseFloat(v.trim());
    } catch (NumberFormatException e) {
      throw new Refused("conf.mapreduce.job.reduce.preemption.limit", "not a number: " + v);
    }
  }

  // ---- the dispatcher's events ----

  private void route(Event e) {
    stats.routed.merge(e.getClass().getSimpleName() + "/" + e.getType(), 1L, Long::sum);
    if (e instanceof SchedulerEvent) {
      sched.handle((SchedulerEvent) e);
      return;
    }
    if (e instanceof RMAppAttemptContainerFinishedEvent) {
      RMAppAttemptContainerFinishedEvent f = (RMAppAttemptContainerFinishedEvent) e;
      JobRun j = byAttempt.get(f.getApplicationAttemptId());
      ContainerStatus cs = f.getContainerStatus();
      if (j != null && (j.amContainer == null || !j.amContainer.getId().equals(cs.getContainerId()))) {
        j.finished.add(cs); // RMAppAttemptImpl's justFinishedContainers, for the AM's next allocate()
      }
      return;
    }
    if (e instanceof RMAppAttemptEvent && e.getType() == RMAppAttemptEventType.CONTAINER_ALLOCATED) {
      JobRun j = byAttempt.get(((RMAppAttemptEvent) e).getApplicationAttemptId());
      if (j != null && j.managed() && j.amContainer == null) {
        amAllocated(j);
      }
      return;
    }
    if (e instanceof RMNodeCleanContainerEvent) {
      ContainerId cid = ((RMNodeCleanContainerEvent) e).getContainerId();
      TaskRun tr = inContainers.get(cid);
      if (tr != null) {
        preempted(tr, cid);
      } else if (idleExecutorOf(cid) != null) {
        // an idle executor (partition_executors): the node manager stops it
        node(idleExecutorOf(cid).getNodeId()).cleanUp(cid);
        stats.containersPreempted++;
      } else {
        for (JobRun j : jobs) {
          if (j.finishMs < 0 && j.amContainer != null && j.amContainer.getId().equals(cid)) {
            throw new IllegalStateException("the RM killed job " + j.idx + "'s running ApplicationMaster container "
                + cid + " (preemption): AM preemption is not played");
          }
        }
      }
      return; // already exited, or never started: nothing for the node manager to do
    }
    if (e instanceof RMAppEvent && e.getType() == RMAppEventType.APP_REJECTED) {
      RMAppEvent r = (RMAppEvent) e;
      int idx = (int) r.getApplicationId().getId() - 1;
      throw new Refused("jobs[" + idx + "].queue", "the scheduler rejected the job: " + r.getDiagnosticMsg());
    }
    if (e instanceof RMFatalEvent) {
      throw new IllegalStateException("RM fatal event: " + e);
    }
    stats.droppedEvents++;
  }

  Configuration conf() {
    return conf;
  }
}
