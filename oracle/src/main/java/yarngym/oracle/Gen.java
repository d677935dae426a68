package yarngym.oracle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Random;

/**
 * A generated MapReduce workload in the exchange format, for the benchmark
 * and the tests: nodes on racks of ten, jobs of maps (20 % read, 80 % map,
 * three replicas) and reduces (shuffle, reduce) submitted at random gaps.
 * Deterministic for a seed.
 */
public final class Gen {
  private Gen() {
  }

  /** {@code Gen SCHEDULER NODES JOBS [SEED]}: prints a generated document. */
  public static void main(String[] args) {
    String sched = args.length > 0 ? args[0] : "fair";
    int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    int jobs = args.length > 2 ? Integer.parseInt(args[2]) : 120;
    long seed = args.length > 3 ? Long.parseLong(args[3]) : 42;
    System.out.println(mapReduce(sched, nodes, jobs, 10, 60, 6, 20000, seed));
  }

  public static String mapReduce(String scheduler, int nodes, int jobs, int minMaps, int maxMaps, int maxReduces,
      long meanGapMs, long seed) {
    Random rnd = new Random(seed);
    ObjectMapper om = new ObjectMapper();
    ObjectNode d = om.createObjectNode();
    d.put("format", Doc.FORMAT);
    d.put("scenario", "generated-mr");
    d.put("seed", seed);
    d.put("scheduler", scheduler);
    ObjectNode conf = d.putObject("conf");
    conf.put("yarn.scheduler.minimum-allocation-mb", "1024");
    if (scheduler.equals("fair")) {
      conf.put("yarn.scheduler.fair.assignmultiple", "true");
      d.put("allocation_file", "<?xml version=\"1.0\"?><allocations><queueMaxAMShareDefault>-1.0"
          + "</queueMaxAMShareDefault></allocations>");
    } else {
      conf.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
      d.put("allocation_file", "");
    }
    ObjectNode m = d.putObject("model");
    m.put("heartbeat_ms", 1000);
    m.put("am_heartbeat_ms", 1000);
    m.put("am_startup_ms", 2000);
    m.put("rack_read_factor", 0.85);
    m.put("off_rack_read_factor", 0.6);
    m.put("shuffle_event_poll_ms", 1000);
    m.put("reduce_rampup_limit", 0.5);
    m.put("reduce_preempt_ms", 300000);
    m.put("am_tick_ms", 10000);
    ArrayNode ns = d.putArray("nodes");
    for (int i = 0; i < nodes; i++) {
      ObjectNode n = ns.addObject();
      n.put("id", i);
      n.put("host", "n" + i);
      n.put("rack", "/rack" + (i / 10));
      n.put("vcores", 8);
      n.put("mem_mb", 16384);
      n.put("speed", i % 3 == 2 ? 1.25 : 1.0);
      n.put("first_heartbeat_ms", rnd.nextInt(1000));
    }
    ArrayNode js = d.putArray("jobs");
    long t = 0;
    for (int j = 0; j < jobs; j++) {
      ObjectNode o = js.addObject();
      o.put("id", j);
      o.put("name", "job-" + j);
      o.put("app", j % 2 == 0 ? "sort" : "grep");
      o.put("framework", "mapreduce");
      o.put("queue", "default");
      o.put("submit_ms", t);
      t += (long) (-Math.log(1 - rnd.nextDouble()) * meanGapMs);
      ObjectNode am = o.putObject("am");
      am.put("vcores", 1);
      am.put("mem_mb", 1024);
      ArrayNode st = o.putArray("stages");
      int maps = minMaps + rnd.nextInt(maxMaps - minMaps + 1);
      int reduces = maxReduces > 0 ? 1 + rnd.nextInt(maxReduces) : 0;
      ObjectNode ms = st.addObject();
      ms.put("index", 0);
      ms.put("name", "map");
      ms.put("kind", "map");
      ms.put("vcores", 1);
      ms.put("mem_mb", 2048);
      ms.put("priority", 20);
      ms.put("slow_start", 0.0);
      ms.put("max_running", 0);
      ArrayNode ph = ms.putArray("phases");
      ph.addObject().put("name", "read").put("frac", 0.2).put("read", true);
      ph.addObject().put("name", "map").put("frac", 0.8);
      ArrayNode ts = ms.putArray("tasks");
      long mapMs = 10000 + rnd.nextInt(40000);
      for (int i = 0; i < maps; i++) {
        ObjectNode tk = ts.addObject();
        tk.put("index", i);
        tk.put("duration_ms", mapMs + rnd.nextInt(5000));
        ArrayNode rep = tk.putArray("replicas");
        int a = rnd.nextInt(nodes);
        rep.add(a);
        if (nodes > 1) {
          int b = (a + 1 + rnd.nextInt(nodes - 1)) % nodes;
          rep.add(b);
        }
      }
      if (reduces > 0) {
        ObjectNode rs = st.addObject();
        rs.put("index", 1);
        rs.put("name", "reduce");
        rs.put("kind", "reduce");
        rs.put("vcores", 1);
        rs.put("mem_mb", 2048);
        rs.put("priority", 10);
        rs.put("slow_start", 0.05);
        rs.put("max_running", 0);
        ArrayNode rph = rs.putArray("phases");
        rph.addObject().put("name", "shuffle").put("frac", 0.5).put("shuffle", true);
        rph.addObject().put("name", "reduce").put("frac", 0.5);
        ArrayNode rts = rs.putArray("tasks");
        for (int i = 0; i < reduces; i++) {
          rts.addObject().put("index", i).put("duration_ms", 20000 + rnd.nextInt(40000));
        }
      }
    }
    return d.toPrettyString();
  }
}
