package yarngym.oracle;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The exchange document (oracle/FORMAT.md, format "yarngym-oracle/1"): the
 * realised workload of one yarngym run. {@link #parse} checks every key the
 * driver uses and throws {@link BadInput} naming the key and the reason.
 */
public final class Doc {
  public static final String FORMAT = "yarngym-oracle/1";

  public String scenario;
  public long seed;
  public String scheduler; // "fair" or "capacity"
  /** Hadoop configuration keys, in document order. */
  public final Map<String, String> conf = new LinkedHashMap<>();
  public String allocationFile = "";
  public final Model model = new Model();
  public final List<Node> nodes = new ArrayList<>();
  public final List<Job> jobs = new ArrayList<>();

  public static final class Model {
    public long heartbeatMs;
    public long amHeartbeatMs;
    public long amStartupMs;
    public double rackReadFactor;
    public double offRackReadFactor;
    public long shuffleEventPollMs;
    public double reduceRampupLimit;
    public long reducePreemptMs;
    public long amTickMs;
    /** The FairScheduler's first update(), then every update interval (absent: 0). */
    public long fairUpdateFirstMs;
    /** The CapacityScheduler preemption monitor's first run (ms), when it is switched on. */
    public long monitorFirstMs;
  }

  public static final class Node {
    public int id;
    public String host;
    public String rack;
    public int vcores;
    public long memMb;
    public double speed;
    public long firstHeartbeatMs;
  }

  public static final class Job {
    public int id;
    public String name, app, framework, queue;
    public long submitMs;
    /** null: no AM (an unmanaged AM plays the job's requests). */
    public Res am;
    /** The job's own AM start-up; 0: the model's am_startup_ms. */
    public long amStartupMs;
    public final List<Stage> stages = new ArrayList<>();

    public int taskCount() {
      int n = 0;
      for (Stage s : stages) {
        n += s.tasks.size();
      }
      return n;
    }
  }

  public static final class Res {
    public int vcores;
    public long memMb;
  }

  public enum Kind {
    MAP("map"), REDUCE("reduce"), EXECUTOR("executor"), TASK("task");
    public final String name;

    Kind(String n) {
      name = n;
    }
  }

  public static final class Stage {
    public int index;
    public String name;
    public Kind kind;
    public int vcores;
    public long memMb;
    public int priority;
    public double slowStart;
    public int maxRunning;
    /** The max_running containers are executors that run the tasks one after another (FORMAT.md). */
    public boolean partitionExecutors;
    public final List<Phase> phases = new ArrayList<>();
    public final List<Task> tasks = new ArrayList<>();
  }

  public static final class Phase {
    public String name;
    public double frac;
    public boolean read;
    public boolean shuffle;
    /** >= 0: a wall phase of this many ms; -1: a work phase. */
    public long wallMs = -1;

    public boolean isWall() {
      return wallMs >= 0;
    }
  }

  public static final class Task {
    public int index;
    public long durationMs;
    public int[] replicas = new int[0];
  }

  /** Bad input: names the file, the key (a JSON path) and the reason. */
  public static final class BadInput extends Exception {
    public final String key;
    public final String reason;

    public BadInput(String file, String key, String reason) {
      super(file + ": " + key + ": " + reason);
      this.key = key;
      this.reason = reason;
    }
  }

  private final String file;

  private Doc(String file) {
    this.file = file;
  }

  public static Doc read(Path path) throws BadInput {
    String name = path.toString();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new BadInput(name, "(file)", "cannot read: " + e.getMessage());
    }
    return parse(name, bytes);
  }

  public static Doc parse(String file, InputStream in) throws BadInput {
    try {
      return parse(file, in.readAllBytes());
    } catch (IOException e) {
      throw new BadInput(file, "(file)", "cannot read: " + e.getMessage());
    }
  }

  public static Doc parse(String file, byte[] bytes) throws BadInput {
    ObjectMapper om = new ObjectMapper();
    om.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    om.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    JsonNode root;
    try {
      root = om.readTree(bytes);
    } catch (IOException e) {
      String msg = e.getMessage();
      int nl = msg == null ? -1 : msg.indexOf('\n');
      throw new BadInput(file, "(document)", "not valid JSON: " + (nl > 0 ? msg.substring(0, nl) : msg));
    }
    Doc d = new Doc(file);
    d.fill(root);
    return d;
  }

  // ---- checked accessors ----

  private BadInput bad(String key, String reason) {
    return new BadInput(file, key, reason);
  }

  private JsonNode need(JsonNode obj, String path, String key) throws BadInput {
    JsonNode v = obj.get(key);
    if (v == null) {
      throw bad(path + key, "missing");
    }
    return v;
  }

  private JsonNode object(JsonNode v, String key) throws BadInput {
    if (v == null || !v.isObject()) {
      throw bad(key, "must be an object");
    }
    return v;
  }

  private JsonNode array(JsonNode v, String key) throws BadInput {
    if (v == null || !v.isArray()) {
      throw bad(key, "must be an array");
    }
    return v;
  }

  private String str(JsonNode obj, String path, String key) throws BadInput {
    JsonNode v = need(obj, path, key);
    if (!v.isTextual()) {
      throw bad(path + key, "must be a string");
    }
    return v.textValue();
  }

  private long integer(JsonNode obj, String path, String key, long min, long max) throws BadInput {
    JsonNode v = need(obj, path, key);
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw bad(path + key, "must be an integer");
    }
    long x = v.longValue();
    if (x < min || x > max) {
      throw bad(path + key, x + " out of range [" + min + ", " + max + "]");
    }
    return x;
  }

  private double number(JsonNode obj, String path, String key, double min, double max, boolean minOpen)
      throws BadInput {
    JsonNode v = need(obj, path, key);
    if (!v.isNumber()) {
      throw bad(path + key, "must be a number");
    }
    double x = v.doubleValue();
    if (Double.isNaN(x) || x < min || x > max || (minOpen && x == min)) {
      throw bad(path + key, x + " out of range " + (minOpen ? "(" : "[") + min + ", " + max + "]");
    }
    return x;
  }

  private boolean bool(JsonNode obj, String path, String key) throws BadInput {
    JsonNode v = obj.get(key);
    if (v == null || v.isNull()) {
      return false;
    }
    if (!v.isBoolean()) {
      throw bad(path + key, "must be true or false");
    }
    return v.booleanValue();
  }

  private static final long MAXI = Integer.MAX_VALUE;
  private static final long MAXT = Long.MAX_VALUE / 4; // times: room to add without overflow

  private void fill(JsonNode root) throws BadInput {
    object(root, "(document)");
    String fmt = str(root, "", "format");
    if (!FORMAT.equals(fmt)) {
      throw bad("format", "is \"" + fmt + "\", this driver reads only \"" + FORMAT + "\"");
    }
    scenario = str(root, "", "scenario");
    seed = integer(root, "", "seed", Long.MIN_VALUE, Long.MAX_VALUE);
    scheduler = str(root, "", "scheduler");
    if (!scheduler.equals("fair") && !scheduler.equals("capacity")) {
      throw bad("scheduler", "is \"" + scheduler + "\", must be \"fair\" or \"capacity\"");
    }
    JsonNode c = object(need(root, "", "conf"), "conf");
    for (Iterator<Map.Entry<String, JsonNode>> it = c.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isTextual()) {
        throw bad("conf." + e.getKey(), "must be a string (Hadoop configuration values are strings)");
      }
      if (e.getKey().isEmpty()) {
        throw bad("conf", "has an empty key");
      }
      conf.put(e.getKey(), e.getValue().textValue());
    }
    JsonNode af = root.get("allocation_file");
    if (af != null && !af.isNull()) {
      if (!af.isTextual()) {
        throw bad("allocation_file", "must be a string");
      }
      allocationFile = af.textValue();
    }
    if (!allocationFile.isEmpty() && !scheduler.equals("fair")) {
      throw bad("allocation_file", "is the Fair Scheduler's fair-scheduler.xml; must be \"\" for scheduler \""
          + scheduler + "\"");
    }

    JsonNode m = object(need(root, "", "model"), "model");
    String mp = "model.";
    model.heartbeatMs = integer(m, mp, "heartbeat_ms", 1, MAXI);
    model.amHeartbeatMs = integer(m, mp, "am_heartbeat_ms", 1, MAXI);
    model.amStartupMs = integer(m, mp, "am_startup_ms", 0, MAXI);
    model.rackReadFactor = number(m, mp, "rack_read_factor", 0, 1e9, true);
    model.offRackReadFactor = number(m, mp, "off_rack_read_factor", 0, 1e9, true);
    model.shuffleEventPollMs = integer(m, mp, "shuffle_event_poll_ms", 1, MAXI);
    model.reduceRampupLimit = number(m, mp, "reduce_rampup_limit", 0, 1, false);
    model.reducePreemptMs = integer(m, mp, "reduce_preempt_ms", 0, MAXT);
    model.amTickMs = integer(m, mp, "am_tick_ms", 1, MAXI);
    model.fairUpdateFirstMs = m.has("fair_update_first_ms") ? integer(m, mp, "fair_update_first_ms", 0, MAXT) : 0;
    model.monitorFirstMs = m.has("monitor_first_ms") ? integer(m, mp, "monitor_first_ms", 0, MAXT) : 0;

    JsonNode ns = array(need(root, "", "nodes"), "nodes");
    if (ns.size() == 0) {
      throw bad("nodes", "is empty: the cluster needs at least one node");
    }
    Set<String> hosts = new HashSet<>();
    for (int i = 0; i < ns.size(); i++) {
      String p = "nodes[" + i + "].";
      JsonNode o = object(ns.get(i), "nodes[" + i + "]");
      Node n = new Node();
      n.id = (int) integer(o, p, "id", 0, MAXI);
      if (n.id != i) {
        throw bad(p + "id", "is " + n.id + ", must equal its index " + i);
      }
      n.host = str(o, p, "host");
      if (n.host.isEmpty() || !hosts.add(n.host)) {
        throw bad(p + "host", n.host.isEmpty() ? "is empty" : "\"" + n.host + "\" is not unique");
      }
      n.rack = str(o, p, "rack");
      if (n.rack.isEmpty()) {
        throw bad(p + "rack", "is empty");
      }
      n.vcores = (int) integer(o, p, "vcores", 1, MAXI);
      n.memMb = integer(o, p, "mem_mb", 1, MAXI);
      n.speed = number(o, p, "speed", 0, 1e9, true);
      n.firstHeartbeatMs = integer(o, p, "first_heartbeat_ms", 0, MAXT);
      nodes.add(n);
    }

    JsonNode js = array(need(root, "", "jobs"), "jobs");
    long lastSubmit = 0;
    for (int i = 0; i < js.size(); i++) {
      String p = "jobs[" + i + "].";
      JsonNode o = object(js.get(i), "jobs[" + i + "]");
      Job j = new Job();
      j.id = (int) integer(o, p, "id", 0, MAXI);
      if (j.id != i) {
        throw bad(p + "id", "is " + j.id + ", must equal its index " + i);
      }
      j.name = str(o, p, "name");
      j.app = str(o, p, "app");
      j.framework = str(o, p, "framework");
      j.queue = str(o, p, "queue");
      if (j.queue.isEmpty()) {
        throw bad(p + "queue", "is empty");
      }
      j.submitMs = integer(o, p, "submit_ms", 0, MAXT);
      if (j.submitMs < lastSubmit) {
        throw bad(p + "submit_ms", j.submitMs + " is before the previous job's " + lastSubmit
            + " (jobs are listed in submission order)");
      }
      lastSubmit = j.submitMs;
      j.amStartupMs = o.has("am_startup_ms") ? integer(o, p, "am_startup_ms", 0, MAXT) : 0;
      JsonNode am = need(o, p, "am");
      if (!am.isNull()) {
        object(am, p + "am");
        j.am = new Res();
        j.am.vcores = (int) integer(am, p + "am.", "vcores", 1, MAXI);
        j.am.memMb = integer(am, p + "am.", "mem_mb", 1, MAXI);
      }
      JsonNode ss = array(need(o, p, "stages"), p + "stages");
      if (ss.size() == 0) {
        throw bad(p + "stages", "is empty: a job needs at least one stage");
      }
      for (int si = 0; si < ss.size(); si++) {
        j.stages.add(stage(ss.get(si), p + "stages[" + si + "]", si));
      }
      jobs.add(j);
    }
  }

  private Stage stage(JsonNode v, String at, int si) throws BadInput {
    JsonNode o = object(v, at);
    String p = at + ".";
    Stage s = new Stage();
    s.index = (int) integer(o, p, "index", 0, MAXI);
    if (s.index != si) {
      throw bad(p + "index", "is " + s.index + ", must equal its position " + si);
    }
    s.name = str(o, p, "name");
    String k = str(o, p, "kind");
    for (Kind kk : Kind.values()) {
      if (kk.name.equals(k)) {
        s.kind = kk;
      }
    }
    if (s.kind == null) {
      throw bad(p + "kind", "is \"" + k + "\", must be map, reduce, executor or task");
    }
    s.vcores = (int) integer(o, p, "vcores", 1, MAXI);
    s.memMb = integer(o, p, "mem_mb", 1, MAXI);
    s.priority = (int) integer(o, p, "priority", 0, MAXI);
    s.slowStart = number(o, p, "slow_start", 0, 1, false);
    s.maxRunning = (int) integer(o, p, "max_running", 0, MAXI);
    s.partitionExecutors = bool(o, p, "partition_executors");
    if (s.partitionExecutors && s.maxRunning <= 0) {
      throw bad(p + "partition_executors", "needs max_running > 0 (the executor count)");
    }
    JsonNode ps = array(need(o, p, "phases"), p + "phases");
    if (ps.size() == 0) {
      throw bad(p + "phases", "is empty: a task needs at least one phase");
    }
    double sum = 0;
    boolean anyWork = false;
    for (int i = 0; i < ps.size(); i++) {
      String pp = p + "phases[" + i + "].";
      JsonNode po = object(ps.get(i), p + "phases[" + i + "]");
      Phase ph = new Phase();
      ph.name = str(po, pp, "name");
      JsonNode w = po.get("wall_ms");
      if (w != null && !w.isNull()) {
        ph.wallMs = integer(po, pp, "wall_ms", 0, MAXT);
      } else {
        ph.frac = number(po, pp, "frac", 0, 1, false);
        sum += ph.frac;
        anyWork = true;
      }
      ph.read = bool(po, pp, "read");
      ph.shuffle = bool(po, pp, "shuffle");
      if (ph.isWall() && (ph.read || ph.shuffle)) {
        throw bad(pp + "wall_ms", "a wall phase cannot also be a read or shuffle phase");
      }
      if (ph.read && ph.shuffle) {
        throw bad(pp + "shuffle", "a phase cannot be both a read and a shuffle phase");
      }
      s.phases.add(ph);
    }
    if (anyWork && Math.abs(sum - 1) > 1e-6) {
      throw bad(p + "phases", "the fracs of the non-wall phases sum to " + sum + ", not 1");
    }
    JsonNode ts = array(need(o, p, "tasks"), p + "tasks");
    if (ts.size() == 0) {
      throw bad(p + "tasks", "is empty: a stage needs at least one task");
    }
    for (int i = 0; i < ts.size(); i++) {
      String tp = p + "tasks[" + i + "].";
      JsonNode to = object(ts.get(i), p + "tasks[" + i + "]");
      Task t = new Task();
      t.index = (int) integer(to, tp, "index", 0, MAXI);
      if (t.index != i) {
        throw bad(tp + "index", "is " + t.index + ", must equal its position " + i);
      }
      t.durationMs = integer(to, tp, "duration_ms", 0, MAXT);
      JsonNode r = to.get("replicas");
      if (r != null && !r.isNull()) {
        array(r, tp + "replicas");
        t.replicas = new int[r.size()];
        Set<Integer> seen = new HashSet<>();
        for (int ri = 0; ri < r.size(); ri++) {
          JsonNode x = r.get(ri);
          String rk = tp + "replicas[" + ri + "]";
          if (!x.isIntegralNumber() || !x.canConvertToInt() || x.intValue() < 0 || x.intValue() >= nodes.size()) {
            throw bad(rk, "must be a node id in [0, " + (nodes.size() - 1) + "]");
          }
          if (!seen.add(x.intValue())) {
            throw bad(rk, "node " + x.intValue() + " is listed twice");
          }
          t.replicas[ri] = x.intValue();
        }
      }
      s.tasks.add(t);
    }
    return s;
  }

  /** The distinct racks, in node order. */
  public List<String> racks() {
    List<String> out = new ArrayList<>();
    for (Node n : nodes) {
      if (!out.contains(n.rack)) {
        out.add(n.rack);
      }
    }
    return Collections.unmodifiableList(out);
  }
}
