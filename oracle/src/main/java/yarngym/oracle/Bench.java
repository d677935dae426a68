package yarngym.oracle;

import java.nio.charset.StandardCharsets;

/**
 * The oracle's cost on a generated document (a benchmark, not a test):
 * {@code java -cp ... yarngym.oracle.Bench [nodes jobs]} runs Fair then
 * Capacity over 30 nodes and 120 MapReduce jobs (about 5,000 containers)
 * and prints start-up ms and containers/s for each.
 */
public final class Bench {
  private Bench() {
  }

  public static void main(String[] args) throws Exception {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 120;
    for (String sched : new String[] {"fair", "capacity"}) {
      String json = Gen.mapReduce(sched, nodes, jobs, 10, 60, 6, 20000, 42);
      Doc doc = Doc.parse("bench-" + sched, json.getBytes(StandardCharsets.UTF_8));
      int tasks = 0;
      for (Doc.Job j : doc.jobs) {
        tasks += j.taskCount();
      }
      long w0 = System.nanoTime();
      Main.Outcome o = Main.run(doc, "bench-" + sched);
      long wall = (System.nanoTime() - w0) / 1_000_000;
      System.out.printf("%-8s %d nodes, %d jobs, %d tasks: %s (wall %d ms)%n", sched, nodes, jobs, tasks,
          o.summary(), wall);
    }
    System.exit(0);
  }
}
