package yarngym.oracle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** jobs.csv and tasks.csv in yarngym's columns (env/runner: JobsCSV, TasksCSV). */
final class Results {
  private Results() {
  }

  /** Milliseconds as seconds with three decimals, exactly. */
  static String secs(long ms) {
    String sign = ms < 0 ? "-" : "";
    long a = Math.abs(ms);
    long frac = a % 1000;
    return sign + (a / 1000) + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac;
  }

  /** A CSV field quoted as Go's encoding/csv quotes it. */
  static String field(String f) {
    if (f.isEmpty()) {
      return f;
    }
    boolean q = f.equals("\\.") || f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\r') >= 0
        || f.indexOf('\n') >= 0 || Character.isWhitespace(f.charAt(0)) || f.charAt(0) == '\u00a0'
        || f.charAt(0) == '\u0085';
    if (!q) {
      return f;
    }
    return "\"" + f.replace("\"", "\"\"") + "\"";
  }

  private static void row(StringBuilder sb, String... fs) {
    for (int i = 0; i < fs.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(field(fs[i]));
    }
    sb.append('\n');
  }

  static String jobsCsv(Sim sim) {
    StringBuilder sb = new StringBuilder();
    row(sb, "job", "name", "app", "framework", "queue", "state", "submit_s", "admit_s", "start_s", "finish_s",
        "wait_s", "completion_s", "tasks", "goal_s", "goal_met");
    for (Sim.JobRun j : sim.jobs) {
      Doc.Job s = j.spec;
      boolean done = j.finishMs >= 0;
      long start = j.managed() ? j.amStart : j.firstStart;
      String state = done ? "done" : (j.si == null ? "future" : "stuck");
      row(sb, String.valueOf(s.id), s.name, s.app, s.framework, s.queue, state, secs(s.submitMs),
          j.si == null ? "" : secs(s.submitMs), start >= 0 ? secs(start) : "", done ? secs(j.finishMs) : "",
          done ? secs(start - s.submitMs) : "", done ? secs(j.finishMs - s.submitMs) : "",
          String.valueOf(s.taskCount()), "", "");
    }
    return sb.toString();
  }

  static String tasksCsv(Sim sim) {
    List<Sim.Rec> recs = new ArrayList<>(sim.records);
    recs.sort(Comparator.<Sim.Rec>comparingInt(r -> r.job).thenComparingInt(r -> r.stage)
        .thenComparingInt(r -> r.index).thenComparingInt(r -> r.attempt));
    StringBuilder sb = new StringBuilder();
    row(sb, "job", "kind", "stage", "index", "attempt", "node", "container", "locality", "start_s", "end_s",
        "outcome");
    for (Sim.Rec r : recs) {
      row(sb, String.valueOf(r.job), r.kind, String.valueOf(r.stage), String.valueOf(r.index),
          String.valueOf(r.attempt), String.valueOf(r.node), "guaranteed", r.locality, secs(r.start), secs(r.end),
          r.outcome);
    }
    return sb.toString();
  }
}
