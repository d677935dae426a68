// Package sim is yarngym's cluster model and discrete-event engine: a pure,
// deterministic state machine for a Hadoop-YARN-like cluster.
//
// Time is an integer count of simulated milliseconds (type Ms); events are
// ordered by (time, sequence number), so two events at the same instant run in
// the order they were scheduled. Nothing here reads the wall clock, draws from
// a package-level random source, performs I/O or starts goroutines: every
// random draw comes from a Rand derived from the run's seed and passed
// explicitly, and the same Config always produces the same bytes out.
//
// The model (README.md, "The model in one paragraph"; ARCHITECTURE.md for
// where this package sits):
//
//   - Nodes have a capacity (vCores, memory MB, disk and network bandwidth),
//     a speed factor and a rack. Map tasks read HDFS-like blocks whose replicas
//     sit on nodes, so a map runs node-local, rack-local or off-rack.
//   - A job has an optional ApplicationMaster that holds its container until
//     the job ends (so AM deadlock is possible) and stages of tasks: MapReduce
//     maps, reduces requested after slow-start whose shuffle waits for map
//     outputs, Spark executors that live for the whole job, Spark tasks in
//     containers of their own with at most MaxRunning held at once, or
//     Spark executors under static allocation that run a stage's partitions
//     one after another in their containers, held until the job's last
//     partition ends (StageSpec.PartitionExecutors, executors.go).
//   - A container reserves its request; what its task actually uses follows a
//     per-sub-phase Profile plus seeded fluctuation, mostly below the request.
//   - When actual CPU demand on a node exceeds capacity, tasks slow down by
//     processor sharing. Disk IO is shared the same way, but an overcommitted
//     disk also loses throughput to seeks between the competing streams: with
//     IO demand D over bandwidth C it delivers C*(C/D)^a in total, so each IO
//     phase gets (C/D)^(1+a) of what it asks (Model.DiskThrashExponent,
//     default 0.4, a hard disk; an assumption of the model). When actual
//     memory exceeds capacity tasks slow sharply (swapping) and the node's
//     swap time is reported. Remote reads, shrunk containers and slow nodes
//     slow tasks too.
//   - The ResourceManager is heartbeat-driven: a Policy assigns containers
//     when a node heartbeats, and may reserve a node for a request that does
//     not fit yet. Containers are guaranteed or opportunistic; opportunistic
//     ones can be killed (work lost, counted as wasted) and reducers can be
//     suspended (CPU freed, memory kept until, optionally, the OS has paged
//     the process out: SwapOut).
//
// Policies plug in at YARN's decision points through the interfaces in
// policy.go; the stock schedulers and the papers' mechanisms live in
// yarngym/policies.
//
// The engine's cost follows the model's work. Simultaneous events are
// ordered without counting every heartbeat (order.go), so the heartbeats of
// idle nodes, which change nothing while no job asks for a container, are
// skipped and delivered on the heartbeat grid when demand appears (idle.go;
// Config.EveryHeartbeat processes them all, with the same results). A node's
// containers' progress is a dense array (Node.slots) that advance and
// recompute sweep once per event, and each node's next phase boundary sits
// in a per-millisecond timing wheel (events.go).
//
// The engine's memory follows the jobs in flight. A run keeps every job's
// JobSpec (a compact description: per task only its duration, and its
// trace's profile and host hint if any) and a small Job; a job's Task and
// Stage objects are built when it arrives and released when its
// application is removed after it ends (build.go), keeping what the run
// writes (the Job, its TaskRecords). Config.KeepTasks builds every task up
// front and keeps it, with the same results.
package sim
