package yarngym.oracle;

import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.util.resource.Resources;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A job's ApplicationMaster as the driver plays it: the request and
 * assignment logic of Hadoop 3.3.6's MapReduce AM
 * (org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator and
 * RMContainerRequestor), generalised to a chain of stages and written anew.
 *
 * <ul>
 * <li>Asks are kept as a table of (priority, resource name, capability) to
 * count; each allocate() sends the entries changed since the last one, with
 * their absolute counts (RMContainerRequestor.addContainerReq /
 * decContainerReq / makeRemoteRequest). A map asks on each replica's host,
 * each replica's rack and ANY; other tasks ANY only.</li>
 * <li>A reduce stage that follows a map stage is played as the MapReduce AM
 * plays its reduces: all its requests wait in a pending list from the AM's
 * start; at each heartbeat (when something changed) scheduleReduces applies
 * slow start (ceil(slow_start * maps) maps finished), then ramps reduces up
 * within the ramp-up limit of the job's resource limit (headroom plus what
 * it holds) while maps are still scheduled, and schedules all once no map
 * is. Newly scheduled reduces are sent at the next allocate().</li>
 * <li>Any other stage (i &gt; 0) is requested once the previous stage has
 * slow_start of its tasks finished (FORMAT.md), at the next allocate().</li>
 * <li>max_running caps a stage's ANY ask at max_running minus the containers
 * it holds (applyConcurrentTaskLimits / setRequestLimit), and containers
 * beyond it are released.</li>
 * <li>Received containers are assigned as ScheduledRequests.assign does:
 * non-map containers to the first scheduled task of their priority; map
 * containers first to a map with a replica on the container's host, then on
 * its rack, then to any map; a container that cannot be used is released
 * at the next allocate().</li>
 * <li>A container counts as held until the RM reports it completed in an
 * allocate() response (processFinishedContainer).</li>
 * <li>A stage with partition_executors (FORMAT.md) is a Spark application's
 * executors under static allocation: asked for as max_running says, each
 * container the AM keeps runs the stage's scheduled tasks one after another
 * (partitionEnded: the first scheduled task at once in the same container,
 * as Spark's TaskSchedulerImpl offers a free executor the next pending task)
 * and idles, still held, when none is left; when the job's last task ends
 * every idle executor exits (stopExecutors: the SparkContext stops). A
 * preempted executor's task goes first among the scheduled again
 * (TaskSetManager re-adds a lost executor's task to be taken next), where
 * an idle executor runs it at once. Until 0.8 of max_running executors are
 * held or 30 s have passed since the AM registered (Spark's
 * TaskSchedulerImpl.waitBackendReady, minRegisteredResourcesRatio and
 * maxRegisteredResourcesWaitingTime on YARN), checked at each heartbeat,
 * the executors it keeps idle and their tasks stay scheduled.</li>
 * <li>Reducer preemption (preemptReducesIfNeeded, the unconditional path):
 * checked every am_tick_ms; when the job holds no map container, has maps
 * scheduled and some of them were requested more than reduce_preempt_ms
 * ago, all scheduled reduces go back to pending and the reducers with the
 * least progress are killed.</li>
 * </ul>
 */
final class AppMaster {
  /** An entry of the ask table. Ordered as RMContainerRequestor's ask set: priority, name, capability. */
  static final class AskKey implements Comparable<AskKey> {
    final int priority;
    final String name;
    final long mem;
    final int vcores;

    AskKey(int priority, String name, Resource cap) {
      this.priority = priority;
      this.name = name;
      this.mem = cap.getMemorySize();
      this.vcores = cap.getVirtualCores();
    }

    @Override
    public int compareTo(AskKey o) {
      int c = Integer.compare(priority, o.priority);
      if (c == 0) {
        c = name.compareTo(o.name);
      }
      if (c == 0) {
        c = Long.compare(mem, o.mem);
      }
      if (c == 0) {
        c = Integer.compare(vcores, o.vcores);
      }
      return c;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof AskKey && compareTo((AskKey) o) == 0;
    }

    @Override
    public int hashCode() {
      return Objects.hash(priority, name, mem, vcores);
    }
  }

  /** A container request of one task attempt (RMContainerRequestor.ContainerRequest). */
  static final class Req {
    final int task;
    final String[] hosts;
    final String[] racks;
    final long requestTimeMs;

    Req(int task, String[] hosts, String[] racks, long t) {
      this.task = task;
      this.hosts = hosts;
      this.racks = racks;
      this.requestTimeMs = t;
    }
  }

  /** One stage's requests: pending (reduces), scheduled (asked for) and assigned (held). */
  final class StageAm {
    final Doc.Stage spec;
    final int idx;
    final Resource cap;
    final boolean isMap;
    /** A reduce stage after a map stage: played as the MapReduce AM's reduces. */
    final boolean mrReduce;
    boolean released;
    boolean reduceStarted;
    int done;
    final int[] attempts;
    final LinkedList<Req> pending = new LinkedList<>();
    final LinkedHashMap<Integer, Req> scheduled = new LinkedHashMap<>();
    final LinkedHashMap<Integer, Container> assigned = new LinkedHashMap<>();
    final Map<String, LinkedList<Integer>> byHost = new HashMap<>();
    final Map<String, LinkedList<Integer>> byRack = new HashMap<>();
    /** partition_executors: the executor containers held with no task to run, oldest first. */
    final List<Container> idle = new ArrayList<>();
    /** partition_executors, capped: the driver schedules no task yet (waitBackendReady). */
    boolean waitReg;

    StageAm(Doc.Stage spec, int idx, Doc.Stage prev) {
      this.spec = spec;
      this.idx = idx;
      this.cap = Resource.newInstance(spec.memMb, spec.vcores);
      this.isMap = spec.kind == Doc.Kind.MAP;
      this.mrReduce = spec.kind == Doc.Kind.REDUCE && prev != null && prev.kind == Doc.Kind.MAP;
      this.attempts = new int[spec.tasks.size()];
    }

    int total() {
      return spec.tasks.size();
    }

    boolean canAssign() {
      return spec.maxRunning <= 0 || held() < spec.maxRunning;
    }

    /** Containers held: the tasks' and the idle executors'. */
    int held() {
      return assigned.size() + idle.size();
    }
  }

  final Sim sim;
  final Sim.JobRun job;
  final StageAm[] stages;
  private final TreeMap<AskKey, Integer> table = new TreeMap<>();
  private final TreeSet<AskKey> ask = new TreeSet<>();
  private final List<ContainerId> release = new ArrayList<>();
  private final TreeMap<AskKey, Integer> requestLimits = new TreeMap<>();
  private final TreeSet<AskKey> limitsToUpdate = new TreeSet<>();
  private final Map<ContainerId, int[]> byContainer = new HashMap<>(); // container -> {stage, task}
  private Resource headroom = Resources.none();
  private boolean recalc;
  private int lastCompletedTasks;
  boolean registered;
  private final EnumSet<SchedulerResourceTypes> types;
  private final float preemptionLimit;

  AppMaster(Sim sim, Sim.JobRun job) {
    this.sim = sim;
    this.job = job;
    List<Doc.Stage> ss = job.spec.stages;
    stages = new StageAm[ss.size()];
    for (int i = 0; i < stages.length; i++) {
      stages[i] = new StageAm(ss.get(i), i, i > 0 ? ss.get(i - 1) : null);
    }
    types = sim.schedulerResourceTypes();
    preemptionLimit = sim.reducePreemptionLimit();
    for (StageAm s : stages) {
      s.waitReg = s.spec.partitionExecutors && s.total() > s.spec.maxRunning && job.managed();
    }
  }

  /** Spark's spark.scheduler.minRegisteredResourcesRatio on YARN (YarnSchedulerBackend). */
  static final double MIN_REGISTERED_RATIO = 0.8;
  /** spark.scheduler.maxRegisteredResourcesWaitingTime's default (CoarseGrainedSchedulerBackend). */
  static final long MAX_REGISTERED_WAIT_MS = 30_000;
  private long registeredAt;

  // ---- the ask table (RMContainerRequestor) ----

  private void addResourceRequest(int priority, String name, Resource cap) {
    AskKey k = new AskKey(priority, name, cap);
    table.merge(k, 1, Integer::sum);
    ask.add(k);
  }

  private void decResourceRequest(int priority, String name, Resource cap) {
    AskKey k = new AskKey(priority, name, cap);
    Integer n = table.get(k);
    if (n == null) {
      return;
    }
    if (n > 1) {
      table.put(k, n - 1);
    } else {
      table.remove(k);
    }
    ask.add(k);
  }

  private void addContainerReq(StageAm s, Req r) {
    for (String h : r.hosts) {
      addResourceRequest(s.spec.priority, h, s.cap);
    }
    for (String rk : r.racks) {
      addResourceRequest(s.spec.priority, rk, s.cap);
    }
    addResourceRequest(s.spec.priority, ResourceRequest.ANY, s.cap);
  }

  private void decContainerReq(StageAm s, Req r) {
    for (String h : r.hosts) {
      decResourceRequest(s.spec.priority, h, s.cap);
    }
    for (String rk : r.racks) {
      decResourceRequest(s.spec.priority, rk, s.cap);
    }
    decResourceRequest(s.spec.priority, ResourceRequest.ANY, s.cap);
  }

  private void setRequestLimit(StageAm s, int limit) {
    if (limit < 0) {
      limit = Integer.MAX_VALUE;
    }
    AskKey k = new AskKey(s.spec.priority, ResourceRequest.ANY, s.cap);
    Integer old = requestLimits.put(k, limit);
    if (old == null || old < limit) {
      limitsToUpdate.add(k);
    }
  }

  /** The asks to send: the changed entries, ANY capped by the request limits (applyRequestLimits). */
  private List<ResourceRequest> takeAsk() {
    TreeMap<AskKey, Integer> send = new TreeMap<>();
    for (AskKey k : ask) {
      send.put(k, table.getOrDefault(k, 0));
    }
    for (Iterator<Map.Entry<AskKey, Integer>> it = requestLimits.entrySet().iterator(); it.hasNext();) {
      Map.Entry<AskKey, Integer> e = it.next();
      Integer count = table.get(e.getKey());
      if (count == null) {
        continue;
      }
      int limit = e.getValue();
      if (send.containsKey(e.getKey()) || limitsToUpdate.contains(e.getKey())) {
        send.put(e.getKey(), Math.min(count, limit));
      }
      if (limit == Integer.MAX_VALUE) {
        it.remove();
      }
    }
    limitsToUpdate.clear();
    ask.clear();
    List<ResourceRequest> out = new ArrayList<>(send.size());
    for (Map.Entry<AskKey, Integer> e : send.entrySet()) {
      AskKey k = e.getKey();
      out.add(ResourceRequest.newInstance(Priority.newInstance(k.priority), k.name,
          Resource.newInstance(k.mem, k.vcores), e.getValue(), true));
    }
    return out;
  }

  // ---- requests of tasks ----

  private Req newReq(StageAm s, int task, long now) {
    if (!s.isMap) {
      return new Req(task, new String[0], new String[0], now);
    }
    int[] reps = s.spec.tasks.get(task).replicas;
    List<String> hosts = new ArrayList<>();
    List<String> racks = new ArrayList<>();
    for (int r : reps) {
      hosts.add(sim.nodes[r].host);
      String rack = sim.doc.nodes.get(r).rack;
      if (!racks.contains(rack)) {
        racks.add(rack);
      }
    }
    return new Req(task, hosts.toArray(new String[0]), racks.toArray(new String[0]), now);
  }

  private void schedule(StageAm s, Req r) {
    s.scheduled.put(r.task, r);
    if (s.isMap) {
      for (String h : r.hosts) {
        s.byHost.computeIfAbsent(h, x -> new LinkedList<>()).add(r.task);
      }
      for (String rk : r.racks) {
        s.byRack.computeIfAbsent(rk, x -> new LinkedList<>()).add(r.task);
      }
    }
    addContainerReq(s, r);
  }

  private void release(StageAm s, long now) {
    s.released = true;
    recalc = true;
    for (int t = 0; t < s.total(); t++) {
      Req r = newReq(s, t, now);
      if (s.mrReduce) {
        s.pending.add(r);
      } else {
        schedule(s, r);
      }
    }
  }

  /** Stages requested at the AM's start: the first, and reduces after maps (to their pending list). */
  private void releaseInitial(long now) {
    for (StageAm s : stages) {
      if (s.idx == 0 || s.mrReduce) {
        release(s, now);
      }
    }
  }

  /** Other stages, once the previous stage has slow_start of its tasks finished (FORMAT.md). */
  private void releaseReady(long now) {
    for (int i = 1; i < stages.length; i++) {
      StageAm s = stages[i];
      StageAm prev = stages[i - 1];
      if (s.released) {
        continue;
      }
      if (!prev.released || prev.done < s.spec.slowStart * prev.total()) {
        return;
      }
      release(s, now);
    }
  }

  private void applyConcurrentTaskLimits() {
    for (StageAm s : stages) {
      int max = s.spec.maxRunning;
      if (max > 0 && !s.scheduled.isEmpty() && s.total() > max) {
        int maxRequested = Math.max(0, max - s.held());
        setRequestLimit(s, Math.min(maxRequested, s.scheduled.size()));
      }
    }
  }

  // ---- the heartbeat (RMContainerAllocator.heartbeat) ----

  void heartbeat(long now) {
    if (!registered) {
      registered = true;
      registeredAt = now;
      releaseInitial(now);
    }
    releaseReady(now);
    applyConcurrentTaskLimits();
    List<ResourceRequest> asks = takeAsk();
    List<ContainerId> rel = new ArrayList<>(release);
    release.clear();
    Allocation a = sim.allocate(job, asks, rel);
    List<ContainerStatus> finished = job.pullFinished();
    if (!finished.isEmpty()) {
      limitsToUpdate.addAll(requestLimits.keySet());
    }
    Resource newHeadroom = a.getResourceLimit() == null ? Resources.none() : a.getResourceLimit();
    List<Container> got = new ArrayList<>(a.getContainers());
    if (got.size() + finished.size() > 0 || !headroom.equals(newHeadroom)) {
      recalc = true;
    }
    headroom = Resources.clone(newHeadroom);
    for (ContainerStatus cs : finished) {
      int[] st = byContainer.remove(cs.getContainerId());
      if (st != null && st[1] < 0) {
        // an idle executor's container (partition_executors)
        StageAm s = stages[st[0]];
        s.idle.removeIf(c -> c.getId().equals(cs.getContainerId()));
      } else if (st != null) {
        StageAm s = stages[st[0]];
        s.assigned.remove(st[1]);
        if (cs.getExitStatus() == ContainerExitStatus.PREEMPTED && s.spec.partitionExecutors) {
          // the executor is lost: its task is the next one taken (first
          // among the scheduled), by an idle executor at once if any
          s.attempts[st[1]]++;
          Req r = newReq(s, st[1], now);
          LinkedHashMap<Integer, Req> rest = new LinkedHashMap<>(s.scheduled);
          s.scheduled.clear();
          s.scheduled.put(r.task, r);
          s.scheduled.putAll(rest);
          addContainerReq(s, r);
          while (!s.waitReg && !s.idle.isEmpty() && !s.scheduled.isEmpty()) {
            runNext(s, s.idle.remove(0), now);
          }
          recalc = true;
        } else if (cs.getExitStatus() == ContainerExitStatus.PREEMPTED) {
          // The RM preempted it: RMContainerAllocator turns the status into
          // TA_KILL, and the task's next attempt asks again as a new one
          // (TaskImpl.AttemptKilledTransition, not rescheduled: a map at its
          // own priority, with its hosts and racks), sent at the next allocate().
          s.attempts[st[1]]++;
          Req r = newReq(s, st[1], now);
          if (s.mrReduce) {
            s.pending.add(r); // reduces go through the ramp-up (scheduleReduces)
          } else {
            schedule(s, r);
          }
          recalc = true;
        }
      }
    }
    if (!got.isEmpty()) {
      assign(got, now);
    }
    for (StageAm s : stages) {
      // the driver's waitBackendReady: enough executors registered, or the wait is over
      if (s.waitReg && (s.held() >= s.spec.maxRunning * MIN_REGISTERED_RATIO || now >= registeredAt + MAX_REGISTERED_WAIT_MS)) {
        s.waitReg = false;
        while (!s.idle.isEmpty() && !s.scheduled.isEmpty()) {
          runNext(s, s.idle.remove(0), now);
        }
      }
    }
    int completed = 0;
    boolean mapsScheduled = false;
    for (StageAm s : stages) {
      completed += s.done;
      if (s.mrReduce && !stages[s.idx - 1].scheduled.isEmpty()) {
        mapsScheduled = true;
      }
    }
    if (completed != lastCompletedTasks || mapsScheduled) {
      lastCompletedTasks = completed;
      recalc = true;
    }
    if (recalc) {
      for (StageAm s : stages) {
        if (s.mrReduce && !preemptionDue(s, now)) {
          scheduleReduces(s);
        }
      }
      recalc = false;
    }
  }

  /** The task's process ended (the AM learns at once through the umbilical). */
  void taskFinished(int stage) {
    stages[stage].done++;
    recalc = true;
  }

  // ---- executors (partition_executors) ----

  /**
   * A task of an executor stage ended in container c: the executor runs the
   * stage's first scheduled task at once in the same container, or idles.
   */
  void partitionEnded(int stage, int task, Container c, long now) {
    StageAm s = stages[stage];
    s.assigned.remove(task);
    if (s.scheduled.isEmpty()) {
      s.idle.add(c);
      byContainer.put(c.getId(), new int[] {s.idx, -1});
      return;
    }
    runNext(s, c, now);
  }

  /** Executor container c runs stage s's first scheduled task, now. */
  private void runNext(StageAm s, Container c, long now) {
    int task = s.scheduled.keySet().iterator().next();
    Req r = s.scheduled.remove(task);
    decContainerReq(s, r);
    s.assigned.put(r.task, c);
    byContainer.put(c.getId(), new int[] {s.idx, r.task});
    sim.startTask(job, s.idx, r.task, s.attempts[r.task], c, now, true);
  }

  /** The job's last task ended: every idle executor's process exits (the SparkContext stops). */
  void stopExecutors() {
    for (StageAm s : stages) {
      for (Container c : s.idle) {
        sim.node(c.getNodeId()).exited(c.getId(), ContainerExitStatus.SUCCESS, "");
      }
    }
  }


  // ---- assignment (ScheduledRequests.assign) ----

  private StageAm stageFor(Container c) {
    int p = c.getPriority().getPriority();
    StageAm first = null;
    for (StageAm s : stages) {
      if (s.spec.priority == p) {
        if (!s.scheduled.isEmpty()) {
          return s;
        }
        if (first == null) {
          first = s;
        }
      }
    }
    return first;
  }

  private void assign(List<Container> got, long now) {
    Map<StageAm, Integer> nonMapPending = new HashMap<>();
    for (StageAm s : stages) {
      nonMapPending.put(s, s.scheduled.size());
    }
    List<Container> left = new ArrayList<>();
    List<StageAm> leftStage = new ArrayList<>();
    for (Container c : got) {
      StageAm s = stageFor(c);
      boolean ok = s != null && availableContainers(c.getResource(), s.cap) > 0;
      if (ok && s.isMap) {
        ok = !s.scheduled.isEmpty();
      } else if (ok) {
        int n = nonMapPending.get(s);
        ok = n > 0;
        if (ok) {
          nonMapPending.put(s, n - 1);
        }
      }
      if (!ok) {
        release.add(c.getId());
        continue;
      }
      left.add(c);
      leftStage.add(s);
    }
    // non-map containers: to the first scheduled task of their stage (assignWithoutLocality)
    for (int i = 0; i < left.size(); i++) {
      StageAm s = leftStage.get(i);
      if (s.isMap || s.scheduled.isEmpty() || !s.canAssign()) {
        continue;
      }
      if (s.waitReg) {
        // an executor registers and idles; its task stays scheduled
        Container c = left.get(i);
        s.idle.add(c);
        byContainer.put(c.getId(), new int[] {s.idx, -1});
        sim.startExecutor(job, c, now);
        left.set(i, null);
        continue;
      }
      int task = s.scheduled.keySet().iterator().next();
      containerAssigned(left.get(i), s, s.scheduled.remove(task), now);
      left.set(i, null);
    }
    // map containers: host-local, then rack-local, then any (assignMapsWithLocality)
    for (int pass = 0; pass < 3; pass++) {
      for (int i = 0; i < left.size(); i++) {
        Container c = left.get(i);
        StageAm s = leftStage.get(i);
        if (c == null || !s.isMap || s.scheduled.isEmpty() || !s.canAssign()) {
          continue;
        }
        Integer task = null;
        if (pass < 2) {
          SimNode n = sim.node(c.getNodeId());
          LinkedList<Integer> l = pass == 0 ? s.byHost.get(n.host) : s.byRack.get(n.rack);
          while (l != null && !l.isEmpty()) {
            int t = l.removeFirst();
            if (s.scheduled.containsKey(t)) {
              task = t;
              break;
            }
          }
        } else {
          task = s.scheduled.keySet().iterator().next();
        }
        if (task != null) {
          containerAssigned(c, s, s.scheduled.remove(task), now);
          left.set(i, null);
        }
      }
    }
    for (Container c : left) {
      if (c != null) {
        release.add(c.getId());
      }
    }
  }

  private void containerAssigned(Container c, StageAm s, Req r, long now) {
    decContainerReq(s, r);
    s.assigned.put(r.task, c);
    byContainer.put(c.getId(), new int[] {s.idx, r.task});
    sim.startTask(job, s.idx, r.task, s.attempts[r.task], c, now, false);
  }

  // ---- reduces: slow start, ramp-up (scheduleReduces) ----

  /** ResourceCalculatorUtils.computeAvailableContainers. */
  private int availableContainers(Resource avail, Resource req) {
    int m = ratio(avail.getMemorySize(), req.getMemorySize());
    if (types.contains(SchedulerResourceTypes.CPU)) {
      return Math.min(m, ratio(avail.getVirtualCores(), req.getVirtualCores()));
    }
    return m;
  }

  private static int ratio(long num, long den) {
    return den == 0 ? Integer.MAX_VALUE : (int) (num / den);
  }

  /** ResourceCalculatorUtils.divideAndCeilContainers. */
  private int divideAndCeil(Resource req, Resource factor) {
    int m = divCeil(req.getMemorySize(), factor.getMemorySize());
    if (types.contains(SchedulerResourceTypes.CPU)) {
      return Math.max(m, divCeil(req.getVirtualCores(), factor.getVirtualCores()));
    }
    return m;
  }

  private static int divCeil(long a, long b) {
    return b == 0 ? 0 : (int) ((a + (b - 1)) / b);
  }

  private Resource resourceLimit(StageAm red) {
    StageAm maps = stages[red.idx - 1];
    return Resources.add(headroom, Resources.add(Resources.multiply(maps.cap, maps.assigned.size()),
        Resources.multiply(red.cap, red.assigned.size())));
  }

  private void scheduleReduces(StageAm red) {
    StageAm maps = stages[red.idx - 1];
    int numPending = red.pending.size();
    if (numPending == 0) {
      return;
    }
    int totalMaps = maps.total();
    int completedMaps = maps.done;
    if (!red.reduceStarted) {
      int need = (int) Math.ceil(red.spec.slowStart * totalMaps);
      if (completedMaps < need) {
        return;
      }
      red.reduceStarted = true;
    }
    int scheduledMaps = maps.scheduled.size();
    if (scheduledMaps == 0) {
      while (!red.pending.isEmpty()) {
        schedule(red, red.pending.removeFirst());
      }
      return;
    }
    float completedMapPercent = totalMaps != 0 ? (float) completedMaps / totalMaps : 1f;
    int assignedMaps = maps.assigned.size();
    Resource netScheduledMap = Resources.multiply(maps.cap, scheduledMaps + assignedMaps);
    Resource netScheduledReduce = Resources.multiply(red.cap, red.scheduled.size() + red.assigned.size());
    Resource total = resourceLimit(red);
    Resource idealReduce = Resources.multiply(total,
        Math.min(completedMapPercent, (float) sim.doc.model.reduceRampupLimit));
    Resource idealMap = Resources.subtract(total, idealReduce);
    Resource finalReduce;
    if (availableContainers(idealMap, maps.cap) >= scheduledMaps + assignedMaps) {
      Resource unusedMap = Resources.subtract(idealMap, netScheduledMap);
      finalReduce = Resources.add(idealReduce, unusedMap);
    } else {
      finalReduce = idealReduce;
    }
    int rampUp = availableContainers(Resources.subtract(finalReduce, netScheduledReduce), red.cap);
    if (rampUp > 0) {
      rampUp = Math.min(rampUp, numPending);
      for (int i = 0; i < rampUp; i++) {
        schedule(red, red.pending.removeFirst());
      }
    } else if (rampUp < 0) {
      rampDown(red, Math.min(-rampUp, red.scheduled.size()));
    }
  }

  /** Scheduled reduces back to pending, first scheduled first (rampDownReduces). */
  private void rampDown(StageAm red, int n) {
    while (n > 0 && !red.scheduled.isEmpty()) {
      int task = red.scheduled.keySet().iterator().next();
      Req r = red.scheduled.remove(task);
      decContainerReq(red, r);
      red.pending.add(r);
      n--;
    }
  }

  // ---- reducer preemption (preemptReducesIfNeeded, unconditional path) ----

  private int hangingMaps(StageAm maps, long now) {
    long delay = sim.doc.model.reducePreemptMs;
    if (delay <= 0) {
      return maps.scheduled.size();
    }
    int n = 0;
    for (Req r : maps.scheduled.values()) {
      if (now - r.requestTimeMs > delay) {
        n++;
      }
    }
    return n;
  }

  private boolean preemptionDue(StageAm red, long now) {
    StageAm maps = stages[red.idx - 1];
    return maps.assigned.isEmpty() && !maps.scheduled.isEmpty() && hangingMaps(maps, now) > 0;
  }

  /** The AM's periodic check (every am_tick_ms). */
  void tick(long now) {
    if (!registered) {
      return;
    }
    for (StageAm red : stages) {
      if (!red.mrReduce || !preemptionDue(red, now)) {
        continue;
      }
      StageAm maps = stages[red.idx - 1];
      int hanging = hangingMaps(maps, now);
      rampDown(red, Integer.MAX_VALUE);
      int forOne = divideAndCeil(maps.cap, red.cap);
      int forLimit = divideAndCeil(Resources.multiply(resourceLimit(red), preemptionLimit), red.cap);
      int forAll = divideAndCeil(Resources.multiply(maps.cap, hanging), red.cap);
      int toPreempt = Math.min(Math.max(forOne, forLimit), forAll);
      List<Integer> order = new ArrayList<>(red.assigned.keySet());
      List<Double> prog = new ArrayList<>();
      for (int t : order) {
        prog.add(sim.progressOf(red.assigned.get(t).getId(), now));
      }
      // stable sort by progress, least first (AssignedRequests.preemptReduce)
      Integer[] idx = new Integer[order.size()];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = i;
      }
      java.util.Arrays.sort(idx, (x, y) -> Double.compare(prog.get(x), prog.get(y)));
      for (int i = 0; i < toPreempt && i < idx.length; i++) {
        int task = order.get(idx[i]);
        Container c = red.assigned.get(task);
        sim.killTask(c.getId(), now);
        // the attempt's deallocation: no longer held, container released at the next allocate()
        red.assigned.remove(task);
        byContainer.remove(c.getId());
        release.add(c.getId());
        red.attempts[task]++;
        red.pending.add(newReq(red, task, now));
        sim.stats.reducersPreempted++;
      }
      recalc = true;
    }
  }
}
