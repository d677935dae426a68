package yarngym.oracle;

import org.apache.hadoop.yarn.api.records.Container;

/**
 * One task attempt in a container: the execution model of FORMAT.md ("How a
 * task runs"). Phases run in order; a work phase of fraction f is
 * f * duration_ms / speed of work at rate 1 per ms (a map's read phase at
 * the rack or off-rack read factor of that rate); a wall phase takes its
 * wall_ms; the task's end (and each phase's, for the events it sets off) is
 * rounded up to a millisecond, the phases themselves not (a phase's fraction
 * of a millisecond carries into the next, as yarngym's engine does). A shuffle
 * phase (of a stage after the first) cannot pass k / M of its work, M the
 * previous stage's task count and k the finished tasks of that stage the
 * task knows of: learnt at its start and at start + i * shuffle_event_poll_ms.
 */
final class TaskRun {
  /** Locality of a map to its input block (yarngym's names). */
  static final String[] LOCALITY = {"node-local", "rack-local", "off-rack"};

  /** A phase end within this much of an integer millisecond is that millisecond (float noise). */
  static final double EPS_MS = 1e-6;

  final Sim.JobRun job;
  final int stage;
  final int index;
  final int attempt;
  final SimNode node;
  final Container container;
  final long start;
  final int locality; // 0 node-local, 1 rack-local, 2 off-rack
  final long order; // (job, stage, index) packed: tie-break of same-instant events

  /** Per phase: its time at full rate (work / rate) or wall time; whether it is a gated shuffle. */
  private final double[] dur;
  private final boolean[] gated;
  private final int prevCount; // M: the previous stage's task count (0: no gating)

  // progress
  private int phase; // current phase
  private long phaseStart; // its start (integer ms)
  private double exactStart; // its start, exactly: phase ends are not rounded before the task's end
  private final long[] phaseEnd;
  int known; // k: finished tasks of the previous stage the task knows of
  private double prog; // work done in the current gated shuffle phase
  private double progAt; // time prog was computed at (>= phaseStart)
  long end = -1; // the task's end, once known
  long pollAt = -1; // its next shuffle event poll, -1 if none due
  boolean done; // ended (finished or killed)
  boolean killed;

  TaskRun(Sim.JobRun job, int stage, int index, int attempt, SimNode node, Container container, long start,
      Doc.Model model) {
    this.job = job;
    this.stage = stage;
    this.index = index;
    this.attempt = attempt;
    this.node = node;
    this.container = container;
    this.start = start;
    this.order = ((long) job.idx << 40) | ((long) stage << 24) | index;
    Doc.Stage st = job.spec.stages.get(stage);
    Doc.Task tk = st.tasks.get(index);
    this.locality = localityOf(st, tk, node, job.sim);
    int n = st.phases.size();
    dur = new double[n];
    gated = new boolean[n];
    phaseEnd = new long[n];
    prevCount = stage > 0 ? job.spec.stages.get(stage - 1).tasks.size() : 0;
    for (int i = 0; i < n; i++) {
      Doc.Phase ph = st.phases.get(i);
      if (ph.isWall()) {
        dur[i] = ph.wallMs;
        continue;
      }
      double work = ph.frac * tk.durationMs / node.spec.speed;
      if (ph.read && st.kind == Doc.Kind.MAP && locality > 0) {
        work = work / (locality == 1 ? model.rackReadFactor : model.offRackReadFactor);
      }
      dur[i] = work;
      gated[i] = ph.shuffle && prevCount > 0;
    }
  }

  static int localityOf(Doc.Stage st, Doc.Task tk, SimNode n, Sim sim) {
    if (st.kind != Doc.Kind.MAP || tk.replicas.length == 0) {
      return 0;
    }
    int loc = 2;
    for (int r : tk.replicas) {
      if (r == n.spec.id) {
        return 0;
      }
      if (sim.doc.nodes.get(r).rack.equals(n.spec.rack)) {
        loc = 1;
      }
    }
    return loc;
  }

  static long ceilMs(double t) {
    double r = Math.rint(t);
    if (Math.abs(t - r) <= EPS_MS) {
      return (long) r;
    }
    return (long) Math.ceil(t);
  }

  /** Starts the attempt: k is learnt now; runs the phases as far as they can be known. */
  void begin(int finishedPrev) {
    known = finishedPrev;
    phase = 0;
    phaseStart = start;
    exactStart = start;
    progAt = start;
    prog = 0;
    advance();
  }

  boolean waitsForShuffle() {
    return end < 0 && !done;
  }

  /** Whether the task still needs map-completion polls (it knows fewer than M). */
  boolean needsPolls() {
    return !done && end < 0 && known < prevCount;
  }

  /**
   * A shuffle event poll at time t: learns k (the previous stage's finished
   * tasks at t) and moves a gated shuffle on.
   */
  void poll(long t, int finishedPrev) {
    if (phase < dur.length && gated[phase] && t > phaseStart) {
      double cap = dur[phase] * known / prevCount;
      prog = Math.min(cap, prog + (t - progAt));
      progAt = t;
    }
    known = finishedPrev;
    advance(t);
  }

  private void advance() {
    advance(phaseStart);
  }

  /**
   * Runs phases while their ends can be computed; sets end when the last is
   * known. A gated shuffle waits while k &lt; M; once k = M it ends after the
   * rest of its work (poll() has brought its progress up to now).
   */
  private void advance(long now) {
    while (phase < dur.length) {
      if (gated[phase] && known < prevCount) {
        return; // wait for polls
      }
      double x; // the phase's exact end: a phase's fraction of a millisecond carries into the next
      if (gated[phase] && now > phaseStart) {
        x = progAt + (dur[phase] - prog);
      } else {
        x = exactStart + dur[phase];
      }
      long e = ceilMs(x);
      phaseEnd[phase] = e;
      phase++;
      phaseStart = e;
      exactStart = x;
      prog = 0;
      progAt = x;
    }
    end = phaseStart;
  }

  /** Progress at time t in [0, 1]: each phase weighs the same (as a reducer's copy, sort and reduce do). */
  double progress(long t) {
    int n = dur.length;
    double p = 0;
    for (int i = 0; i < n; i++) {
      if (i < phase) {
        if (phaseEnd[i] <= t) {
          p += 1;
          continue;
        }
        long s = i == 0 ? start : phaseEnd[i - 1];
        p += (t - s) / (double) Math.max(1, phaseEnd[i] - s);
        break;
      }
      if (i == phase && t > phaseStart) {
        if (gated[i]) {
          double cap = dur[i] * known / Math.max(1, prevCount);
          double pr = Math.min(cap, prog + (t - progAt));
          p += dur[i] > 0 ? pr / dur[i] : 0;
        } else {
          p += dur[i] > 0 ? Math.min(1, (t - phaseStart) / dur[i]) : 0;
        }
      }
      break;
    }
    return p / n;
  }

  String kindName() {
    return job.spec.stages.get(stage).kind.name;
  }
}
