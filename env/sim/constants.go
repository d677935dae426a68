package sim

// Model holds the cluster model's constants. Zero fields take the defaults
// of DefaultModel.
type Model struct {
	// HeartbeatMs is the node heartbeat interval (YARN's
	// yarn.resourcemanager.nodemanagers.heartbeat-interval-ms, 1000).
	HeartbeatMs Ms
	// UsageSampleMs is how often a task's actual usage is redrawn.
	UsageSampleMs Ms
	// AMStartupMs is how long an AM runs before it requests its tasks.
	AMStartupMs Ms
	// Read speed of a map's read phase relative to a node-local read.
	RackReadFactor    float64
	OffRackReadFactor float64
	// SwapExponent: when actual memory m exceeds capacity C, every task on
	// the node progresses at (C/m)^SwapExponent of its speed.
	SwapExponent float64
	// DiskThrashExponent a: when the summed IO demand D on a node exceeds
	// its DiskMBps C, the disk delivers C*(C/D)^a in total instead of C, so
	// each IO phase gets (C/D)^(1+a) of what it asks. Concurrent streams on
	// a hard disk force seeks between them, so the aggregate throughput
	// falls as the overcommit grows; a = 0 is ideal processor sharing (the
	// disk keeps its full bandwidth however many streams compete, as an SSD
	// roughly does). It applies to every node with DiskMBps > 0.
	//
	// Zero takes the default (DefaultDiskThrashExponent); to ask for ideal
	// sharing explicitly set a negative value such as NoDiskThrash, which
	// resolves to 0 (as a negative AMStartupMs resolves to 0). The scenario
	// key model.disk_thrash_exponent takes 0 literally and maps it here.
	//
	// This loss is what makes overcommitting the disk cost throughput, the
	// mechanism behind RAS's argument that the Fair Scheduler's co-located
	// I/O-bound tasks leave the CPU waiting on I/O while RAS, which places
	// tasks against measured per-task demand, avoids it (Reference: RAS
	// Sec. 4.2, Figs. 4(c)-(d)).
	DiskThrashExponent float64
	// Replicas is the default HDFS replication of map input blocks.
	Replicas int
	// GatedCPU is the share of its shuffle CPU level a reducer uses while it
	// idles waiting for map outputs.
	GatedCPU float64
	// ReduceRampupLimit: while a job still has maps waiting for containers,
	// at most min(f, this) of its running tasks may be reducers, f the share
	// of its maps completed (MapReduce AM, RMContainerAllocator's
	// scheduleReduces; yarn.app.mapreduce.am.job.reduce.rampup.limit, 0.5).
	ReduceRampupLimit float64
	// ReducePreemptMs: a job whose maps have waited this long without any
	// map starting, while its reducers hold containers, kills its newest
	// reducer to make room (MapReduce AM reducer preemption,
	// mapreduce.job.reducer.unconditional-preempt.delay.sec, 300 s). Checked
	// every AMTickMs.
	ReducePreemptMs Ms
	AMTickMs        Ms
	// ShuffleEventPollMs: a reducer learns which maps of its job have
	// finished only when it asks its ApplicationMaster, at its start and
	// then every ShuffleEventPollMs while maps keep finishing, and its
	// shuffle cannot pass the share it knows of. Hadoop's reducers do so in
	// a fetcher thread that sleeps a second between calls
	// (org.apache.hadoop.mapreduce.task.reduce.EventFetcher: SLEEP_TIME
	// 1000 ms between getMapCompletionEvents calls). Zero takes the default
	// (1 s); a negative value makes every map's end known at once (the
	// model before this field), which costs an event per reducer per map.
	ShuffleEventPollMs Ms
	// AMHeartbeatMs: a container given to a job with an AM is started when
	// the AM next calls allocate(), every AMHeartbeatMs from its
	// registration (AMStartupMs after its own start); until then it holds
	// its resources and its task makes no progress. MapReduce's AM calls
	// every second (yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms,
	// 1000). Zero takes the default; a negative value starts containers at
	// once (the model before this field). Jobs without an AM (toy
	// examples) and typed-slot TaskTrackers (Hadoop 1 has no AM) start at
	// once.
	AMHeartbeatMs Ms
	// ImmediateRelease frees a finished container's resources when its
	// process ends. By default they are freed when its node manager next
	// heartbeats and reports it complete, as the ResourceManager does
	// (AbstractYarnScheduler.nodeUpdate processes a node's completed
	// containers before it schedules on that node): until then the job, its
	// queue and the node still hold them.
	ImmediateRelease bool
	// Uncontended runs every task at its nominal speed whatever its node's
	// actual usage: no processor sharing of CPU or disk and no swapping
	// (usage is still drawn, sampled and reported). A task's run time then
	// depends only on where and when the scheduler put it (node speed, its
	// map's locality, its shuffle's wait for maps): the execution model the
	// Hadoop oracle plays (oracle/FORMAT.md), so that a comparison measures
	// the schedulers alone. The default (false) is the contended model.
	Uncontended bool
}

// DefaultDiskThrashExponent is Model.DiskThrashExponent's default, a figure
// for a hard disk: two competing sequential streams deliver about 75% of one
// stream's throughput in total and eight about 45%; a = 0.4 fits both
// (2^-0.4 = 0.76, 8^-0.4 = 0.44). This is an assumption of the model, not a
// number from the papers. RAS's Table 2 profiles are consistent with it:
// they were measured at the slot setting where the job completed fastest, "a
// configuration in which competition for resources occurs and some system
// bottlenecks are hit, but in which severe performance degradation is not
// yet observed" (Reference: RAS Sec. 3.3), and with a = 0.4 a small
// overcommit costs little (1.25x loses 9% of the disk's throughput) while a
// large one is severe (4x loses 43%).
const DefaultDiskThrashExponent = 0.4

// NoDiskThrash, as Model.DiskThrashExponent, asks for ideal disk sharing
// (exponent 0); a zero field would take the default instead.
const NoDiskThrash = -1.0

// DefaultModel is the model used where a scenario does not say otherwise.
var DefaultModel = Model{
	HeartbeatMs:        1000,
	UsageSampleMs:      5000,
	AMStartupMs:        2000,
	RackReadFactor:     0.85,
	OffRackReadFactor:  0.6,
	SwapExponent:       4,
	DiskThrashExponent: DefaultDiskThrashExponent,
	Replicas:           3,
	GatedCPU:           0.1,
	ReduceRampupLimit:  0.5,
	ReducePreemptMs:    300 * MsPerS,
	AMTickMs:           10 * MsPerS,
	ShuffleEventPollMs: MsPerS,
	AMHeartbeatMs:      MsPerS,
}

func (m Model) withDefaults() Model {
	d := DefaultModel
	d.HeartbeatMs = positiveOr(m.HeartbeatMs, d.HeartbeatMs)
	d.UsageSampleMs = positiveOr(m.UsageSampleMs, d.UsageSampleMs)
	d.RackReadFactor = positiveOr(m.RackReadFactor, d.RackReadFactor)
	d.OffRackReadFactor = positiveOr(m.OffRackReadFactor, d.OffRackReadFactor)
	d.SwapExponent = positiveOr(m.SwapExponent, d.SwapExponent)
	d.Replicas = positiveOr(m.Replicas, d.Replicas)
	d.GatedCPU = positiveOr(m.GatedCPU, d.GatedCPU)
	d.ReduceRampupLimit = positiveOr(m.ReduceRampupLimit, d.ReduceRampupLimit)
	d.ReducePreemptMs = positiveOr(m.ReducePreemptMs, d.ReducePreemptMs)
	d.AMTickMs = positiveOr(m.AMTickMs, d.AMTickMs)
	// A negative value asks for 0 where 0 itself means "the default".
	d.AMStartupMs = negativeZeroOr(m.AMStartupMs, d.AMStartupMs)
	d.DiskThrashExponent = negativeZeroOr(m.DiskThrashExponent, d.DiskThrashExponent)
	d.Uncontended = m.Uncontended
	d.ImmediateRelease = m.ImmediateRelease
	if m.AMHeartbeatMs != 0 {
		d.AMHeartbeatMs = max(m.AMHeartbeatMs, -1)
	}
	if m.ShuffleEventPollMs != 0 {
		d.ShuffleEventPollMs = max(m.ShuffleEventPollMs, -1)
	}
	return d
}

// positiveOr is v if it is positive, else def.
func positiveOr[T ~int | ~int64 | ~float64](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// negativeZeroOr is v if it is positive, 0 if it is negative, else def.
func negativeZeroOr[T ~int64 | ~float64](v, def T) T {
	if v < 0 {
		return 0
	}
	return positiveOr(v, def)
}
