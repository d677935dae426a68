package sim

// TaskKind says what a container runs.
type TaskKind uint8

const (
	KindAM TaskKind = iota
	KindMap
	KindReduce
	KindExecutor
	KindGeneric
)

var kindNames = [...]string{"am", "map", "reduce", "executor", "task"}

func (k TaskKind) String() string { return kindNames[k] }

// ParseTaskKind returns the kind named s ("map", "reduce", "executor", "task").
func ParseTaskKind(s string) (TaskKind, bool) {
	for i, n := range kindNames {
		if n == s && TaskKind(i) != KindAM {
			return TaskKind(i), true
		}
	}
	return 0, false
}

// JobSpec is a job as the workload describes it, before it runs.
type JobSpec struct {
	Name      string
	App       string // application, e.g. "terasort"; a classifier feature
	Framework string // "mapreduce", "spark", ...
	Queue     string
	SubmitMs  Ms
	// AM is the ApplicationMaster's request; zero means the job has no AM
	// (toy examples).
	AM     Res
	Stages []StageSpec
	// GoalMs is an optional completion-time goal, relative to submission.
	GoalMs Ms
	// CommitMs is the job's commit: from its last task's end to its own,
	// its AM holding its container meanwhile (a MapReduce AM commits the
	// job's output, CommitterEventHandler's commitJob, then writes its
	// history and unregisters; a job history records the job's finishTime
	// after it). Only a job with an AM commits; 0: the job ends with its
	// last task.
	CommitMs Ms
	// AMStartupMs, when positive, is how long this job's AM runs before it
	// requests its tasks, in place of Model.AMStartupMs: a Spark driver in
	// YARN-cluster mode starts its SparkContext inside the AM container
	// before it asks for executors, which takes longer than a MapReduce AM's
	// start. 0 takes the model's.
	AMStartupMs Ms
}

// StartupMs is how long the job's AM runs before it requests its tasks
// under model m (AMStartupMs, else m's).
func (j *JobSpec) StartupMs(m Model) Ms {
	if j.AMStartupMs > 0 {
		return j.AMStartupMs
	}
	return m.AMStartupMs
}

// StageSpec is a group of similar tasks. Stage i+1 is requested once
// SlowStart of stage i's tasks have finished (MapReduce's
// mapreduce.job.reduce.slowstart.completedmaps); stages with SlowStart 0 are
// requested as soon as the job's AM runs.
type StageSpec struct {
	Name      string
	Kind      TaskKind
	Req       Res
	Profile   *Profile
	SlowStart float64
	// DurationsMs holds each task's nominal duration: alone on a speed-1 node
	// with local data. Its length is the stage's task count. When it is
	// empty, Drawn describes the durations instead (a generator's
	// log-normal draws, computed as each task is built). Read them through
	// NumTasks and DurationMs, which take either.
	DurationsMs []Ms
	Drawn       LogNormalDurations
	// BlockReplicas is the number of HDFS replicas of each map's input block
	// (0 means the model's default); only maps read blocks.
	BlockReplicas int
	// Profiles, when not nil, gives each task its own usage profile (one per
	// task, in DurationsMs order), replacing Profile for that task: a trace
	// replays the usage curves it measured (Rumen's per-attempt cpuUsages
	// and physMemKbytes). Profile is still required (it names the stage's
	// kind of usage); a nil entry keeps it.
	Profiles []*Profile
	// Hosts, when not nil, gives each map a node it prefers (one per task,
	// in DurationsMs order; -1: none): its input block is placed there
	// instead of on random replicas, so the scheduler's locality rules
	// steer it to that node. A trace's recorded placements (Rumen attempt
	// hosts, SLS container.host) become such hints. Node k of a trace is
	// node k mod the cluster's node count. Only maps read blocks: other
	// kinds ignore it.
	Hosts []int32
	// MaxRunning, when > 0, is the most containers the stage holds at once:
	// its tasks beyond that wait, unrequested, for one of its containers to
	// end. A Spark job on YARN as DRESS observes it (Sec. II-B, Fig. 4:
	// "each task handles a partition", and the YARN layer sees containers
	// of ~10-18 s) runs each partition in a container of its own and holds
	// at most its executor count of containers; as one ends it asks for the
	// next. 0: every released task is requested at once.
	MaxRunning int
	// PartitionExecutors, with MaxRunning > 0, makes the stage's containers
	// Spark executors under static allocation and its tasks the partitions
	// they run (executors.go): the job holds at most MaxRunning executor
	// containers, asked for as MaxRunning says; an executor runs the
	// stage's pending partitions one after another in its one container,
	// in the stage's queue order, with no request or release between them
	// (Spark's CoarseGrainedExecutorBackend runs every task the driver's
	// TaskSchedulerImpl.resourceOffers gives it); an executor with no
	// partition left idles, holding its container, until the job's last
	// partition ends (static allocation: executors live until the
	// SparkContext stops), and then every executor container of the job is
	// released. An executor lost (killed, preempted) puts its partition
	// back at the head of the queue, and its AM asks for another
	// (YarnAllocator: target - pending - running). false: one container
	// per task (the old view of DRESS's Spark, above).
	PartitionExecutors bool
}

// NodeSpec is one node of the cluster.
type NodeSpec struct {
	Name string
	Rack int
	Cap  Res
	// Cores is the physical CPU capacity that actual usage contends for; 0
	// means Cap.VCores (OPERA's nodes offer 2 vCores per physical core).
	Cores    float64
	DiskMBps float64
	NetMBps  float64
	Speed    float64
	// ReduceSlots, when > 0, makes the node a Hadoop 1 TaskTracker with
	// typed slots (RAS Sec. 2; mapred.tasktracker.reduce.tasks.maximum):
	// reducers run in ReduceSlots reduce slots of their own and request no
	// vCores, so the node's vCores are its map slots. A TaskTracker takes at
	// most one new reducer per heartbeat through NextTask (Hadoop 1's
	// schedulers never assign more than one reduce task per heartbeat), and
	// the YARN MapReduce AM's reduce ramp-up limit and reducer preemption do
	// not apply there (its reducers take no map slot). 0: YARN containers.
	ReduceSlots int
}

// IsolatedMs estimates how long job j would take alone on an idle cluster
// of capacity cap at nominal speed: the AM's start-up (if it has an AM)
// plus, per stage in turn, StageIsolatedMs, floored at one second. The
// environment's slowdowns divide by it (env.IsolatedMs); a scenario's
// memory estimate counts a job in flight for that long.
func IsolatedMs(j *JobSpec, amStartupMs Ms, cap Res) float64 {
	var t float64
	if !j.AM.IsZero() {
		t += float64(amStartupMs)
	}
	for i := range j.Stages {
		st := &j.Stages[i]
		var longest, total float64
		for i := range st.NumTasks() {
			d := st.DurationMs(i)
			longest = max(longest, float64(d))
			total += float64(d)
		}
		t += StageIsolatedMs(longest, total, st.Req, st.MaxRunning, cap)
	}
	return max(t, float64(MsPerS))
}

// StageIsolatedMs is a stage's time alone on an idle cluster of capacity
// cap, from its longest task and its total task time (ms): the longest of
// (its longest task; its total time times one task's dominant share of
// the cluster, i.e. its waves when it fills the cluster; its total time
// over its maxRunning cap).
func StageIsolatedMs(longest, total float64, req Res, maxRunning int, cap Res) float64 {
	stage := longest
	if cap.VCores > 0 && cap.MemMB > 0 {
		share := max(float64(req.VCores)/float64(cap.VCores), float64(req.MemMB)/float64(cap.MemMB))
		stage = max(stage, total*share)
	}
	if maxRunning > 0 {
		stage = max(stage, total/float64(maxRunning))
	}
	return stage
}
