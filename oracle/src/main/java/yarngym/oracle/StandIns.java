package yarngym.oracle;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.util.Records;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Stand-ins for the RM's application and attempt objects (RMAppImpl and
 * RMAppAttemptImpl), which the schedulers consult: the submission context,
 * the current attempt, its master (AM) container once allocated, the AM
 * resource requests, the queue and priority, and the attempt's metrics.
 * Their state machines do not run: the driver plays what they would do
 * (Sim). Built as dynamic proxies answering the methods the schedulers call;
 * every other method returns an empty value (null, 0, false or an empty
 * collection) and is counted in {@link #unexpected} for diagnosis.
 */
final class StandIns {
  /** Methods answered with an empty value, by name (for diagnosis). */
  static final Map<String, Integer> unexpected = new TreeMap<>();

  final ApplicationId appId;
  final ApplicationAttemptId attemptId;
  final ApplicationSubmissionContext asc;
  final List<ResourceRequest> amRequests; // null: unmanaged AM
  final String user;
  final long submitMs;
  String queue;
  Container masterContainer;
  final RMAppAttemptMetrics metrics;
  final RMApp app;
  final RMAppAttempt attempt;

  StandIns(ApplicationId appId, String name, String queue, String user, long submitMs,
      List<ResourceRequest> amRequests, RMContext ctx) {
    this.appId = appId;
    this.attemptId = ApplicationAttemptId.newInstance(appId, 1);
    this.queue = queue;
    this.user = user;
    this.submitMs = submitMs;
    this.amRequests = amRequests;
    asc = Records.newRecord(ApplicationSubmissionContext.class);
    asc.setApplicationId(appId);
    asc.setApplicationName(name);
    asc.setQueue(queue);
    asc.setPriority(Priority.newInstance(0));
    asc.setUnmanagedAM(amRequests == null);
    asc.setApplicationType("MAPREDUCE");
    asc.setMaxAppAttempts(1);
    asc.setKeepContainersAcrossApplicationAttempts(false);
    if (amRequests != null) {
      asc.setResource(amRequests.get(0).getCapability());
      asc.setAMContainerResourceRequests(amRequests);
    }
    metrics = new RMAppAttemptMetrics(attemptId, ctx);
    app = (RMApp) Proxy.newProxyInstance(RMApp.class.getClassLoader(), new Class<?>[] {RMApp.class},
        new Handler(true));
    attempt = (RMAppAttempt) Proxy.newProxyInstance(RMAppAttempt.class.getClassLoader(),
        new Class<?>[] {RMAppAttempt.class}, new Handler(false));
  }

  private final class Handler implements InvocationHandler {
    private final boolean isApp;

    Handler(boolean isApp) {
      this.isApp = isApp;
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) {
      String n = m.getName();
      switch (n) {
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == args[0];
        case "toString":
          return (isApp ? "RMApp " : "RMAppAttempt ") + (isApp ? appId : attemptId);
        case "handle":
          return null; // state machine events: the driver plays them
        case "getApplicationSubmissionContext":
        case "getSubmissionContext":
          return asc;
        case "getApplicationId":
          return appId;
        case "getAppAttemptId":
          return attemptId;
        case "getCurrentAppAttempt":
        case "getRMAppAttempt":
          return attempt;
        case "getAppAttempts": {
          Map<ApplicationAttemptId, RMAppAttempt> m1 = new HashMap<>();
          m1.put(attemptId, attempt);
          return m1;
        }
        case "getMasterContainer":
          return masterContainer;
        case "getRMAppAttemptMetrics":
          return metrics;
        case "getAMResourceRequests":
          return amRequests;
        case "getApplicationSchedulingEnvs":
          return new HashMap<String, String>();
        case "getQueue":
          return queue;
        case "setQueue":
          queue = (String) args[0];
          return null;
        case "getUser":
        case "getRealUser":
          return user;
        case "getName":
          return asc.getApplicationName();
        case "getApplicationType":
          return "MAPREDUCE";
        case "getApplicationPriority":
          return Priority.newInstance(0);
        case "getState":
          return RMAppState.RUNNING;
        case "getAppAttemptState":
        case "getState_":
          return RMAppAttemptState.RUNNING;
        case "getSubmitTime":
        case "getStartTime":
          return submitMs;
        case "getMaxAppAttempts":
          return 1;
        case "isAppFinalStateStored":
          return false;
        default:
          break;
      }
      synchronized (unexpected) {
        unexpected.merge((isApp ? "RMApp." : "RMAppAttempt.") + n, 1, Integer::sum);
      }
      Class<?> r = m.getReturnType();
      if (r == boolean.class) {
        return false;
      }
      if (r == int.class) {
        return 0;
      }
      if (r == long.class) {
        return 0L;
      }
      if (r == float.class) {
        return 0f;
      }
      if (r == double.class) {
        return 0d;
      }
      if (r == void.class) {
        return null;
      }
      if (r == List.class || r == Collection.class) {
        return new ArrayList<>();
      }
      if (r == Set.class) {
        return new HashSet<>();
      }
      if (r == Map.class) {
        return new HashMap<>();
      }
      return null;
    }
  }

  static Set<String> sortedUnexpected() {
    synchronized (unexpected) {
      return new TreeSet<>(unexpected.keySet());
    }
  }
}
