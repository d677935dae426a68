package yarngym.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.io.InputStream;

/** The execution model (FORMAT.md, "How a task runs") on its own. */
class TaskRunTest {
  static Doc doc() throws Exception {
    try (InputStream in = TaskRunTest.class.getResourceAsStream("/hand-fair.json")) {
      Doc d = Doc.parse("hand-fair.json", in);
      d.nodes.get(1).rack = "/rack1"; // node 1 on another rack
      d.nodes.get(1).speed = 1.25;
      return d;
    }
  }

  static TaskRun task(Doc d, int stage, int index, int node, long start) {
    Sim sim = new Sim(d, "t");
    Sim.JobRun j = new Sim.JobRun(sim, 0, d.jobs.get(0));
    SimNode n = new SimNode(d.nodes.get(node), null);
    return new TaskRun(j, stage, index, 0, n, null, start, d.model);
  }

  @Test
  void readPhaseByLocality() throws Exception {
    Doc d = doc();
    // map 0 (10 s: read 0.2, map 0.8), replica on node 0
    TaskRun local = task(d, 0, 0, 0, 1000);
    local.begin(0);
    assertEquals(0, local.locality);
    assertEquals(1000 + 2000 + 8000, local.end);
    // on node 1 (other rack, speed 1.25): read 2000 / 1.25 / 0.6 = 2666.67 -> 2667, map 8000 / 1.25 = 6400
    TaskRun off = task(d, 0, 0, 1, 1000);
    off.begin(0);
    assertEquals(2, off.locality);
    assertEquals(1000 + 2667 + 6400, off.end);
    // rack-local: node 1 back on node 0's rack
    d.nodes.get(1).rack = "/rack0";
    TaskRun rack = task(d, 0, 0, 1, 1000);
    rack.begin(0);
    assertEquals(1, rack.locality);
    // 2000 / 1.25 / 0.85 = 1882.35 -> 1883
    assertEquals(1000 + 1883 + 6400, rack.end);
  }

  @Test
  void shuffleWaitsForMaps() throws Exception {
    Doc d = doc();
    // the reducer (8 s: shuffle 0.5, reduce 0.5) of 3 maps, on node 0, started at 0 knowing 1 map
    TaskRun r = task(d, 1, 0, 0, 0);
    r.begin(1);
    assertEquals(-1, r.end);
    r.poll(1000, 1); // nothing new
    assertEquals(-1, r.end);
    r.poll(3000, 2); // 4000/3 done by 1333.3, waits; now may reach 2666.7
    assertEquals(-1, r.end);
    r.poll(5000, 3); // 2666.7 reached at 4333.3; the rest 1333.3 from 5000: 6333.3 -> 6334, then 4000
    assertEquals(6334 + 4000, r.end);
  }
}
