package yarngym.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** The driver end to end, in one JVM (Hadoop's static metrics are reset between runs). */
class OracleTest {
  static byte[] resource(String name) throws IOException {
    try (InputStream in = OracleTest.class.getResourceAsStream("/" + name)) {
      return in.readAllBytes();
    }
  }

  static Main.Outcome run(String name, byte[] json) throws Doc.BadInput {
    return Main.run(Doc.parse(name, json), name);
  }

  /**
   * hand-fair.json worked out by hand (Fair, assignmultiple false; node 0
   * beats at 0, 1, 2 s..., node 1 at 0.5, 1.5 s...; Fair update every 0.5 s
   * after the heartbeats of the same instant):
   * job 0's AM request (t=0) is seen by the update at 0 and placed by node
   * 1's beat at 0.5; the AM asks at 2.5 and then every second. Node 0's
   * beat at 3.0 gives it a container, picked up at 3.5 for map 0 (replica on
   * node 0): read 2 s + map 8 s, 3.5 to 13.5. Node 0 at 4.0: map 2, 4.5 to
   * 24.5. Node 1 at 4.5: map 1 (replica on node 1), 5.5 to 15.5. Job 1
   * (t=3) gets its AM on node 1 at 3.5, asks at 5.5; node 0 at 6.0 gives
   * map 1 (6.5 to 11.5), node 1 at 6.5 map 0 (7.5 to 12.5): job 1 ends at
   * 12.5. Job 0's reducer (slow start 0.3: one map) is scheduled at the
   * heartbeat of 13.5, asked at 14.5, seen by the update at 14.5, placed by
   * node 0 at 15.0, started at 15.5 knowing 2 of 3 maps (map 1 ended at
   * 15.5, before the heartbeat): its 4 s shuffle stops at 2/3 (2.667 s);
   * the poll at 24.5 (15.5 + 9 s) learns the last map: 1.333 s more, to
   * 25.834 (rounded up), then the 4 s reduce: 29.834.
   */
  @Test
  void handMadeDocument() throws Exception {
    Main.Outcome o = run("hand-fair.json", resource("hand-fair.json"));
    assertEquals(String.join("\n",
        "job,name,app,framework,queue,state,submit_s,admit_s,start_s,finish_s,wait_s,completion_s,tasks,goal_s,goal_met",
        "0,sort-1,sort,mapreduce,default,done,0.000,0.000,0.500,29.834,0.500,29.834,4,,",
        "1,grep-1,grep,mapreduce,default,done,3.000,3.000,3.500,12.500,0.500,9.500,2,,", ""), o.jobsCsv);
    assertEquals(String.join("\n",
        "job,kind,stage,index,attempt,node,container,locality,start_s,end_s,outcome",
        "0,am,-1,0,0,1,guaranteed,node-local,0.500,29.834,done",
        "0,map,0,0,0,0,guaranteed,node-local,3.500,13.500,done",
        "0,map,0,1,0,1,guaranteed,node-local,5.500,15.500,done",
        "0,map,0,2,0,0,guaranteed,node-local,4.500,24.500,done",
        "0,reduce,1,0,0,0,guaranteed,node-local,15.500,29.834,done",
        "1,am,-1,0,0,1,guaranteed,node-local,3.500,12.500,done",
        "1,map,0,0,0,1,guaranteed,node-local,7.500,12.500,done",
        "1,map,0,1,0,0,guaranteed,node-local,6.500,11.500,done", ""), o.tasksCsv);
  }

  @Test
  void sameInputSameBytes() throws Exception {
    byte[] hand = resource("hand-fair.json");
    assertEquals(run("a", hand).tasksCsv, run("b", hand).tasksCsv);
    for (String s : new String[] {"fair", "capacity"}) {
      byte[] g = Gen.mapReduce(s, 6, 15, 3, 12, 3, 8000, 5).getBytes(StandardCharsets.UTF_8);
      Main.Outcome x = run("g1", g);
      Main.Outcome y = run("g2", g);
      assertEquals(x.jobsCsv, y.jobsCsv, s);
      assertEquals(x.tasksCsv, y.tasksCsv, s);
    }
  }

  @Test
  void bothSchedulersRunEveryJob() throws Exception {
    for (String s : new String[] {"fair", "capacity"}) {
      String json = Gen.mapReduce(s, 6, 15, 3, 12, 3, 8000, 9);
      Doc doc = Doc.parse(s, json.getBytes(StandardCharsets.UTF_8));
      Main.Outcome o = Main.run(doc, s);
      assertFalse(o.stuck, s);
      String[] jobs = o.jobsCsv.split("\n");
      assertEquals(16, jobs.length, s);
      int tasks = 0;
      for (int i = 1; i < jobs.length; i++) {
        assertEquals("done", jobs[i].split(",")[5], s + ": " + jobs[i]);
        tasks += doc.jobs.get(i - 1).taskCount();
      }
      // one row per task and per AM, every attempt done (no preemption here)
      assertEquals(1 + tasks + 15, o.tasksCsv.split("\n").length, s);
      assertFalse(o.tasksCsv.contains("killed"), s);
    }
  }

  /** A job without an AM (unmanaged), a stage with max_running 2, and a stage released by slow start. */
  @Test
  void genericStagesAndUnmanagedAm() throws Exception {
    ObjectMapper om = new ObjectMapper();
    ObjectNode d = (ObjectNode) om.readTree(resource("generic-fair.json"));
    for (String s : new String[] {"fair", "capacity"}) {
      d.put("scheduler", s);
      if (s.equals("capacity")) {
        d.putObject("conf");
      }
      Main.Outcome o = run("generic-" + s, om.writeValueAsBytes(d));
      assertTrue(o.jobsCsv.contains("1,grep-1,grep,toy,default,done,3.000,3.000,4.000,31.000"), o.jobsCsv);
      long[][] iv = new long[5][];
      long lastTaskEnd = 0;
      long firstExecutor = Long.MAX_VALUE;
      for (String row : o.tasksCsv.split("\n")) {
        String[] f = row.split(",");
        if (!f[0].equals("1")) {
          continue;
        }
        long a = Math.round(Double.parseDouble(f[8]) * 1000);
        long b = Math.round(Double.parseDouble(f[9]) * 1000);
        if (f[1].equals("task")) {
          iv[Integer.parseInt(f[3])] = new long[] {a, b};
          lastTaskEnd = Math.max(lastTaskEnd, b);
        } else {
          firstExecutor = Math.min(firstExecutor, a);
        }
      }
      for (long[] x : iv) {
        int overlapping = 0;
        for (long[] y : iv) {
          if (y[0] <= x[0] && x[0] < y[1]) {
            overlapping++;
          }
        }
        assertTrue(overlapping <= 2, s + ": more than max_running tasks at once");
      }
      // executors (slow start 0.5 of 5 tasks) start once 3 tasks have finished, before the last one
      assertTrue(firstExecutor >= iv[2][1] && firstExecutor < lastTaskEnd, s);
    }
  }

  /**
   * generic-fair.json's job 1 with its first stage as partition executors
   * (5 tasks of 7 s, max_running 2): two containers run the five tasks, each
   * of tasks 2-4 starting in the millisecond an earlier task ends (no new
   * container); 10 containers in all (job 0: AM, 3 maps, a reducer; job 1:
   * 2 executors, 3 executors of its second stage) against 13 without.
   */
  @Test
  void partitionExecutorsReuseTheirContainers() throws Exception {
    ObjectMapper om = new ObjectMapper();
    ObjectNode d = (ObjectNode) om.readTree(resource("generic-fair.json"));
    ((ObjectNode) d.get("jobs").get(1).get("stages").get(0)).put("partition_executors", true);
    Main.Outcome o = run("generic-executors", om.writeValueAsBytes(d));
    assertFalse(o.stuck);
    assertEquals(10, o.containers, o.tasksCsv);
    long[][] iv = new long[5][];
    for (String row : o.tasksCsv.split("\n")) {
      String[] f = row.split(",");
      if (f[0].equals("1") && f[1].equals("task")) {
        iv[Integer.parseInt(f[3])] = new long[] {Math.round(Double.parseDouble(f[8]) * 1000),
            Math.round(Double.parseDouble(f[9]) * 1000)};
      }
    }
    for (int i = 2; i < 5; i++) {
      boolean handedOff = false;
      for (int k = 0; k < i; k++) {
        handedOff |= iv[k][1] == iv[i][0];
      }
      assertTrue(handedOff, "task " + i + " did not start as an earlier task ended: " + o.tasksCsv);
    }
    ((ObjectNode) d.get("jobs").get(1).get("stages").get(0)).put("max_running", 0);
    Doc.BadInput e = assertThrows(Doc.BadInput.class, () -> run("bad-executors", om.writeValueAsBytes(d)));
    assertEquals("jobs[1].stages[0].partition_executors", e.key);
  }

  @Test
  void capacitySchedulerTakesItsConf() throws Exception {
    // two queues from the document's conf: a job in "b" runs; a job in an unknown queue is refused
    ObjectMapper om = new ObjectMapper();
    ObjectNode d = (ObjectNode) om.readTree(Gen.mapReduce("capacity", 4, 4, 2, 4, 1, 5000, 3));
    ObjectNode conf = (ObjectNode) d.get("conf");
    conf.put("yarn.scheduler.capacity.root.queues", "a,b");
    conf.put("yarn.scheduler.capacity.root.a.capacity", "50");
    conf.put("yarn.scheduler.capacity.root.b.capacity", "50");
    for (int i = 0; i < 4; i++) {
      ((ObjectNode) d.get("jobs").get(i)).put("queue", i % 2 == 0 ? "a" : "b");
    }
    Main.Outcome o = run("cs", om.writeValueAsBytes(d));
    assertTrue(o.jobsCsv.contains(",a,done,") && o.jobsCsv.contains(",b,done,"), o.jobsCsv);
    ((ObjectNode) d.get("jobs").get(2)).put("queue", "nosuch");
    Doc.BadInput e = assertThrows(Doc.BadInput.class, () -> run("cs2", om.writeValueAsBytes(d)));
    assertEquals("jobs[2].queue", e.key);
  }

  @Test
  void reducerPreemption() throws Exception {
    // a small, busy cluster: maps wait more than reduce_preempt_ms while reducers hold the containers
    ObjectMapper om = new ObjectMapper();
    ObjectNode d = (ObjectNode) om.readTree(Gen.mapReduce("fair", 3, 30, 10, 60, 6, 1500, 7));
    ((ObjectNode) d.get("model")).put("reduce_preempt_ms", 20000).put("am_tick_ms", 5000);
    for (int i = 0; i < 30; i++) {
      ObjectNode j = (ObjectNode) d.get("jobs").get(i);
      j.put("submit_ms", i * 1500);
      if (j.get("stages").size() > 1) {
        ((ObjectNode) j.get("stages").get(1)).put("slow_start", 0.0);
      }
    }
    Main.Outcome o = run("pre", om.writeValueAsBytes(d));
    assertFalse(o.stuck);
    assertTrue(o.tasksCsv.contains(",killed"), "expected preempted reducers");
    // every killed attempt is followed by a later attempt of the same task that is done
    String[] rows = o.tasksCsv.split("\n");
    for (int i = 1; i < rows.length; i++) {
      String[] f = rows[i].split(",");
      if (f[10].equals("killed")) {
        assertEquals("reduce", f[1]);
        String[] next = rows[i + 1].split(",");
        assertEquals(f[0] + f[2] + f[3], next[0] + next[2] + next[3]);
        assertEquals(Integer.parseInt(f[4]) + 1, Integer.parseInt(next[4]));
      }
    }
  }

  // ---- bad input ----

  static void expectBad(String key, Consumer<ObjectNode> edit) throws Exception {
    ObjectMapper om = new ObjectMapper();
    ObjectNode d = (ObjectNode) om.readTree(resource("hand-fair.json"));
    edit.accept(d);
    Doc.BadInput e = assertThrows(Doc.BadInput.class, () -> run("bad.json", om.writeValueAsBytes(d)));
    assertEquals(key, e.key, e.getMessage());
    assertTrue(e.getMessage().startsWith("bad.json: " + key + ": "), e.getMessage());
  }

  static ObjectNode at(ObjectNode d, String... path) {
    com.fasterxml.jackson.databind.JsonNode n = d;
    for (String p : path) {
      n = p.matches("\\d+") ? n.get(Integer.parseInt(p)) : n.get(p);
    }
    return (ObjectNode) n;
  }

  @Test
  void badInputNamesTheKey() throws Exception {
    expectBad("format", d -> d.put("format", "yarngym-oracle/2"));
    expectBad("scheduler", d -> d.put("scheduler", "fifo"));
    expectBad("model.heartbeat_ms", d -> at(d, "model").remove("heartbeat_ms"));
    expectBad("model.am_heartbeat_ms", d -> at(d, "model").put("am_heartbeat_ms", 0));
    expectBad("conf.yarn.scheduler.minimum-allocation-mb", d -> at(d, "conf").put(
        "yarn.scheduler.minimum-allocation-mb", 1024));
    expectBad("nodes[1].id", d -> at(d, "nodes", "1").put("id", 5));
    expectBad("nodes[0].speed", d -> at(d, "nodes", "0").put("speed", 0));
    expectBad("jobs[1].submit_ms", d -> at(d, "jobs", "1").put("submit_ms", -1));
    expectBad("jobs[0].stages[0].kind", d -> at(d, "jobs", "0", "stages", "0").put("kind", "spark"));
    expectBad("jobs[0].stages[0].phases", d -> at(d, "jobs", "0", "stages", "0", "phases", "0").put("frac", 0.5));
    expectBad("jobs[0].stages[0].tasks[1].replicas[0]",
        d -> ((com.fasterxml.jackson.databind.node.ArrayNode) at(d, "jobs", "0", "stages", "0", "tasks", "1")
            .get("replicas")).set(0, com.fasterxml.jackson.databind.node.IntNode.valueOf(7)));
    expectBad("jobs[0].stages[1]", d -> at(d, "jobs", "0", "stages", "1").put("mem_mb", 100000));
    expectBad("conf.yarn.scheduler.fair.preemption", d -> at(d, "conf").put("yarn.scheduler.fair.preemption",
        "true"));
    expectBad("allocation_file", d -> d.put("allocation_file", "<allocations><queue"));
  }

  @Test
  void mainExitsTwoOnBadInputAndWritesNothing(@TempDir Path dir) throws Exception {
    Path in = dir.resolve("broken.json");
    Files.write(in, "{\"format\": \"yarngym-oracle/1\", \"scenario\": \"x\"}".getBytes(StandardCharsets.UTF_8));
    Path out = dir.resolve("out");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), "yarngym.oracle.Main", "--in", in.toString(), "--out",
        out.toString()).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(2, p.waitFor(), text);
    assertTrue(text.contains(in.toString() + ": seed: missing"), text);
    assertFalse(Files.exists(out.resolve("jobs.csv")));
    assertFalse(Files.exists(out.resolve("tasks.csv")));
  }
}
