package yarngym.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;

/**
 * {@code Main --in export.json --out DIR}: runs Hadoop 3.3.6's own scheduler
 * over the document in simulated time and writes DIR/jobs.csv and
 * DIR/tasks.csv. Exit codes: 0 done; 1 the run failed; 2 bad input or usage.
 * Wall-clock figures (the cost summary) go to stderr only.
 */
public final class Main {
  private Main() {
  }

  /** The outcome of one run: the two CSV texts and the cost figures. */
  public static final class Outcome {
    public final String jobsCsv;
    public final String tasksCsv;
    public final long startupMs;
    public final long runMs;
    public final long containers;
    public final boolean stuck;

    Outcome(String jobsCsv, String tasksCsv, long startupMs, long runMs, long containers, boolean stuck) {
      this.jobsCsv = jobsCsv;
      this.tasksCsv = tasksCsv;
      this.startupMs = startupMs;
      this.runMs = runMs;
      this.containers = containers;
      this.stuck = stuck;
    }

    public String summary() {
      double s = runMs / 1000.0;
      return String.format("oracle: start-up %d ms, %d containers in %d ms, %.0f containers/s%s", startupMs,
          containers, runMs, s > 0 ? containers / s : 0.0, stuck ? " (stuck: some jobs could not finish)" : "");
    }
  }

  /** Runs one document (in this JVM; static Hadoop metrics are reset before and after). */
  public static Outcome run(Doc doc, String name) throws Doc.BadInput {
    try (Sim sim = new Sim(doc, name)) {
      try {
        sim.setUp();
        sim.run();
      } catch (Sim.Refused r) {
        throw new Doc.BadInput(name, r.key, r.getMessage());
      }
      if (System.getenv("YARNGYM_ORACLE_DEBUG") != null) {
        System.err.println("oracle debug: events " + sim.stats.events + ", dispatcher events " + sim.stats.routed
            + ", stand-in methods answered empty " + StandIns.sortedUnexpected() + ", threads " + threadNames()
            + ", timers not stopped " + sim.quiesceMissed);
      }
      return new Outcome(Results.jobsCsv(sim), Results.tasksCsv(sim), sim.startupMs, sim.runMs,
          sim.stats.containers, sim.stuck);
    }
  }

  /** The live threads' names, sorted (diagnosis: the driver starts none). */
  static java.util.List<String> threadNames() {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      out.add(t.getName() + (t.isDaemon() ? " (daemon)" : ""));
    }
    java.util.Collections.sort(out);
    return out;
  }

  static void usage(String msg) {
    System.err.println("oracle: " + msg);
    System.err.println("usage: java -cp 'oracle/target/classes:oracle/target/lib/*' yarngym.oracle.Main"
        + " --in export.json --out DIR");
    System.exit(2);
  }

  public static void main(String[] args) {
    long w0 = System.nanoTime();
    String in = null;
    String out = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if ((a.equals("--in") || a.equals("--out")) && i + 1 < args.length) {
        if (a.equals("--in")) {
          in = args[++i];
        } else {
          out = args[++i];
        }
      } else if (a.startsWith("--in=")) {
        in = a.substring(5);
      } else if (a.startsWith("--out=")) {
        out = a.substring(6);
      } else {
        usage("unknown argument " + a);
      }
    }
    if (in == null || out == null) {
      usage("--in and --out are required");
    }
    Outcome o;
    try {
      Doc doc = Doc.read(Paths.get(in));
      o = run(doc, in);
    } catch (Doc.BadInput e) {
      System.err.println("oracle: " + e.getMessage());
      System.exit(2);
      return;
    } catch (RuntimeException e) {
      System.err.println("oracle: " + in + ": the run failed: " + e);
      e.printStackTrace();
      System.exit(1);
      return;
    }
    try {
      Path dir = Paths.get(out);
      Files.createDirectories(dir);
      write(dir, "jobs.csv", o.jobsCsv);
      write(dir, "tasks.csv", o.tasksCsv);
    } catch (IOException e) {
      System.err.println("oracle: cannot write " + out + ": " + e.getMessage());
      System.exit(1);
      return;
    }
    long jvmMs = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
    System.err.println(o.summary() + String.format(" (JVM up %d ms, main %d ms)", jvmMs,
        (System.nanoTime() - w0) / 1_000_000));
    System.exit(0);
  }

  /** Writes to a temporary file in the same folder, then renames: never a half-written file. */
  static void write(Path dir, String name, String text) throws IOException {
    Path tmp = Files.createTempFile(dir, "." + name + ".", ".tmp");
    try {
      Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
