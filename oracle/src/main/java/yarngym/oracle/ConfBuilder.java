package yarngym.oracle;

import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The ResourceManager's configuration for a document: the driver's
 * defaults (no security, no recovery, no timeline service, the maximum
 * allocation the largest node), then the document's conf, which wins;
 * Fair's allocation file written to a temporary file; features that run in
 * RM threads refused (but the CapacityScheduler's preemption monitor, which
 * the driver plays on the simulated clock), and requests larger than any node.
 */
final class ConfBuilder {
  private ConfBuilder() {}

  /** A built configuration and the temporary allocation file it names (null if none), for Sim.close to remove. */
  static final class Built {
    final YarnConfiguration yarn;
    final Path allocTemp;

    Built(YarnConfiguration yarn, Path allocTemp) {
      this.yarn = yarn;
      this.allocTemp = allocTemp;
    }
  }

  /** Keys whose features run in RM threads the driver does not start. */
  private static final String[][] THREADED = {
      {"yarn.scheduler.fair.preemption", "Fair Scheduler preemption runs in FSPreemptionThread"},
      {"yarn.scheduler.fair.continuous-scheduling-enabled", "continuous scheduling runs in its own thread"},
      {"yarn.scheduler.capacity.schedule-asynchronously.enable", "asynchronous scheduling runs in its own threads"},
      {"yarn.scheduler.capacity.multi-node-placement-enabled", "multi-node placement sorts nodes in its own thread"},
      {"yarn.resourcemanager.recovery.enabled", "RM recovery needs a state store"},
  };

  /** The YarnConfiguration: the driver's defaults, then the document's conf (which wins), checked. */
  static Built build(Doc doc, String docName) throws Doc.BadInput {
    Path allocTemp = null;
    YarnConfiguration c = new YarnConfiguration();
    boolean isFair = doc.scheduler.equals("fair");
    c.set(YarnConfiguration.RM_SCHEDULER, isFair ? SimRM.Fair.class.getName() : CapacityScheduler.class.getName());
    long maxMem = 0;
    int maxV = 0;
    for (Doc.Node n : doc.nodes) {
      maxMem = Math.max(maxMem, n.memMb);
      maxV = Math.max(maxV, n.vcores);
    }
    c.setLong(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, maxMem);
    c.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, maxV);
    c.set("hadoop.security.authentication", "simple");
    c.setBoolean("hadoop.security.authorization", false);
    c.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, false);
    c.setBoolean(YarnConfiguration.RECOVERY_ENABLED, false);
    c.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    c.setBoolean(YarnConfiguration.RM_RESERVATION_SYSTEM_ENABLE, false);
    c.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, false);
    if (!isFair && !doc.conf.containsKey("yarn.scheduler.capacity.root.queues")) {
      // the stock capacity-scheduler.xml's one queue
      c.set("yarn.scheduler.capacity.root.queues", "default");
      c.set("yarn.scheduler.capacity.root.default.capacity", "100");
      c.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
    }
    for (Map.Entry<String, String> e : doc.conf.entrySet()) {
      c.set(e.getKey(), e.getValue(), "document conf");
    }
    if (isFair && !doc.allocationFile.isEmpty()) {
      try {
        allocTemp = Files.createTempFile("yarngym-fair-scheduler-", ".xml");
        Files.write(allocTemp, doc.allocationFile.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new Doc.BadInput(docName, "allocation_file", "cannot write it to a temporary file: " + e.getMessage());
      }
      c.set("yarn.scheduler.fair.allocation.file", allocTemp.toAbsolutePath().toString());
    }
    if (c.getBoolean("yarn.resourcemanager.scheduler.monitor.enable", false)) {
      // The CapacityScheduler's preemption monitor is played on the simulated
      // clock (EV_MONITOR); the Fair Scheduler's preemption runs in its own thread.
      String policies = c.get("yarn.resourcemanager.scheduler.monitor.policies", ProportionalCapacityPreemptionPolicy.class.getName()).trim();
      if (isFair || !policies.equals(ProportionalCapacityPreemptionPolicy.class.getName())) {
        throw new Doc.BadInput(docName, "conf.yarn.resourcemanager.scheduler.monitor.enable",
            "true is supported only with the CapacityScheduler and its ProportionalCapacityPreemptionPolicy");
      }
    }
    for (String[] k : THREADED) {
      if (c.getBoolean(k[0], false)) {
        throw new Doc.BadInput(docName, "conf." + k[0], "true is not supported: " + k[1]
            + ", which this single-threaded driver does not start");
      }
    }
    if (isFair) {
      long u = c.getLong("yarn.scheduler.fair.update-interval-ms", 500);
      if (u == 0) {
        throw new Doc.BadInput(docName, "conf.yarn.scheduler.fair.update-interval-ms",
            "0 leaves Hadoop 3.3.6's Fair Scheduler with no update thread; must be > 0 (< 0: the default)");
      }
    }
    // every request must fit a node (the RM rejects larger ones)
    for (Doc.Job j : doc.jobs) {
      if (j.am != null && (j.am.memMb > maxMem || j.am.vcores > maxV)) {
        throw new Doc.BadInput(docName, "jobs[" + j.id + "].am", "larger than the largest node");
      }
      for (Doc.Stage s : j.stages) {
        if (s.memMb > maxMem || s.vcores > maxV) {
          throw new Doc.BadInput(docName, "jobs[" + j.id + "].stages[" + s.index + "]",
              "request <" + s.memMb + " MB, " + s.vcores + " vcores> is larger than the largest node");
        }
      }
    }
    return new Built(c, allocTemp);
  }

}
