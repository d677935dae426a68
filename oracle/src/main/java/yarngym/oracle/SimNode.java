package yarngym.oracle;

import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceUtilization;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.records.OpportunisticContainersStatus;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.UpdatedContainerInfo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node: the RM's view of it (an {@link RMNode} stand-in, in place of
 * RMNodeImpl) and the node manager the driver plays. The node manager knows
 * the containers started on it; at each heartbeat it reports those it has
 * not reported yet as launched (RUNNING) and those whose process ended since
 * its last heartbeat as completed, as RMNodeImpl's status update does (a
 * container that ended before its first report is reported completed only).
 */
final class SimNode implements RMNode {
  /** Debug trace only: the reservation last traced ("" none). */
  String tracedReservation = "";

  static final int NM_PORT = 45454;

  final Doc.Node spec;
  final NodeId nodeId;
  final String host; // loopback address standing for spec.host
  final String rack;
  final Resource total;
  final RMContext rmContext;

  private static final class NmContainer {
    final ContainerId id;
    boolean reported; // reported launched to the RM
    boolean exited;

    NmContainer(ContainerId id) {
      this.id = id;
    }
  }

  /** Containers the node manager runs or ran since its last heartbeat, in start order. */
  private final Map<ContainerId, NmContainer> containers = new LinkedHashMap<>();
  private final List<ContainerStatus> completedSinceBeat = new ArrayList<>();
  private List<UpdatedContainerInfo> forScheduler = new ArrayList<>();

  SimNode(Doc.Node spec, RMContext ctx) {
    this.spec = spec;
    this.host = loopback(spec.id);
    this.nodeId = NodeId.newInstance(host, NM_PORT);
    this.rack = spec.rack;
    this.total = Resource.newInstance(spec.memMb, spec.vcores);
    this.rmContext = ctx;
  }

  /**
   * Node i's host name: a loopback address (127.1.0.1, 127.1.0.2, ...), so
   * that the container tokens the RM builds from it resolve without DNS.
   */
  static String loopback(int i) {
    int n = i + 1;
    return "127." + (1 + (n >> 16)) + "." + ((n >> 8) & 255) + "." + (n & 255);
  }

  // ---- the node manager ----

  /** The AM started a container here (ContainerManager.startContainers). */
  void started(ContainerId id) {
    if (containers.put(id, new NmContainer(id)) != null) {
      throw new IllegalStateException("container " + id + " started twice on " + nodeId);
    }
  }

  /** The container's process ended (or was stopped) now. */
  void exited(ContainerId id, int exitStatus, String diag) {
    NmContainer c = containers.get(id);
    if (c == null || c.exited) {
      throw new IllegalStateException("container " + id + " is not running on " + nodeId);
    }
    c.exited = true;
    completedSinceBeat.add(ContainerStatus.newInstance(id, ContainerState.COMPLETE, diag, exitStatus));
  }

  /**
   * The RM told the node manager to stop the container (its next heartbeat
   * response's containers to clean up, RMNodeImpl): the node manager stops
   * the process then, and reports it complete at the heartbeat after.
   */
  void cleanUp(ContainerId id) {
    toCleanUp.add(id);
  }

  boolean isRunning(ContainerId id) {
    NmContainer c = containers.get(id);
    return c != null && !c.exited;
  }

  /** Containers the RM killed, stopped at this node's next heartbeat. */
  private final List<ContainerId> toCleanUp = new ArrayList<>();

  /** Builds this heartbeat's container report, which pullContainerUpdates hands the scheduler. */
  void beat() {
    List<ContainerStatus> launched = new ArrayList<>();
    for (NmContainer c : containers.values()) {
      if (!c.reported && !c.exited) {
        c.reported = true;
        launched.add(ContainerStatus.newInstance(c.id, ContainerState.RUNNING, "", ContainerExitStatus.INVALID));
      }
    }
    List<ContainerStatus> completed = new ArrayList<>(completedSinceBeat);
    completedSinceBeat.clear();
    containers.values().removeIf(c -> c.exited);
    forScheduler = new ArrayList<>();
    if (!launched.isEmpty() || !completed.isEmpty()) {
      forScheduler.add(new UpdatedContainerInfo(launched, completed, new ArrayList<>()));
    }
    // The heartbeat's response told the node manager to stop these: their
    // completion goes out with the next heartbeat.
    for (ContainerId id : toCleanUp) {
      NmContainer c = containers.get(id);
      if (c != null && !c.exited) {
        c.exited = true;
        completedSinceBeat.add(ContainerStatus.newInstance(id, ContainerState.COMPLETE, "Container preempted by scheduler",
            ContainerExitStatus.PREEMPTED));
      }
    }
    toCleanUp.clear();
  }

  // ---- RMNode ----

  @Override
  public List<UpdatedContainerInfo> pullContainerUpdates() {
    List<UpdatedContainerInfo> out = forScheduler;
    forScheduler = new ArrayList<>();
    return out;
  }

  @Override
  public NodeId getNodeID() {
    return nodeId;
  }

  @Override
  public String getHostName() {
    return host;
  }

  @Override
  public int getCommandPort() {
    return NM_PORT;
  }

  @Override
  public int getHttpPort() {
    return 8042;
  }

  @Override
  public String getNodeAddress() {
    return host + ":" + NM_PORT;
  }

  @Override
  public String getHttpAddress() {
    return host + ":8042";
  }

  @Override
  public String getHealthReport() {
    return "";
  }

  @Override
  public long getLastHealthReportTime() {
    return 0;
  }

  @Override
  public String getNodeManagerVersion() {
    return "3.3.6";
  }

  @Override
  public Resource getTotalCapability() {
    return total;
  }

  @Override
  public boolean isUpdatedCapability() {
    return false;
  }

  @Override
  public void resetUpdatedCapability() {
  }

  @Override
  public ResourceUtilization getAggregatedContainersUtilization() {
    return ResourceUtilization.newInstance(0, 0, 0f);
  }

  @Override
  public ResourceUtilization getNodeUtilization() {
    return ResourceUtilization.newInstance(0, 0, 0f);
  }

  @Override
  public Resource getPhysicalResource() {
    return total;
  }

  @Override
  public String getRackName() {
    return rack;
  }

  @Override
  public Node getNode() {
    return new NodeBase(host, rack);
  }

  @Override
  public NodeState getState() {
    return NodeState.RUNNING;
  }

  @Override
  public List<ContainerId> getContainersToCleanUp() {
    return Collections.emptyList();
  }

  @Override
  public List<ApplicationId> getAppsToCleanup() {
    return Collections.emptyList();
  }

  @Override
  public List<ApplicationId> getRunningApps() {
    return Collections.emptyList();
  }

  @Override
  public void setAndUpdateNodeHeartbeatResponse(NodeHeartbeatResponse response) {
  }

  @Override
  public NodeHeartbeatResponse getLastNodeHeartBeatResponse() {
    return null;
  }

  @Override
  public void resetLastNodeHeartBeatResponse() {
  }

  @Override
  public Set<String> getNodeLabels() {
    return Collections.emptySet();
  }

  @Override
  public List<Container> pullNewlyIncreasedContainers() {
    return Collections.emptyList();
  }

  @Override
  public OpportunisticContainersStatus getOpportunisticContainersStatus() {
    return null;
  }

  @Override
  public long getUntrackedTimeStamp() {
    return 0;
  }

  @Override
  public void setUntrackedTimeStamp(long timeStamp) {
  }

  @Override
  public Integer getDecommissioningTimeout() {
    return null;
  }

  @Override
  public Map<String, Long> getAllocationTagsWithCount() {
    return Collections.emptyMap();
  }

  @Override
  public RMContext getRMContext() {
    return rmContext;
  }

  @Override
  public Set<NodeAttribute> getAllNodeAttributes() {
    return Collections.emptySet();
  }

  @Override
  public long calculateHeartBeatInterval(long defaultInterval, long minInterval, long maxInterval,
      float speedupFactor, float slowdownFactor) {
    return defaultInterval;
  }

  @Override
  public String toString() {
    return nodeId.toString();
  }
}
