package scenario

import "github.com/BurntSushi/toml"

// File is a scenario file as written.
type File struct {
	Name        string   `toml:"name"`
	Description string   `toml:"description"`
	Paper       string   `toml:"paper"`
	Seed        uint64   `toml:"seed"`
	Cluster     Cluster  `toml:"cluster"`
	Model       Model    `toml:"model"`
	Policy      Policy   `toml:"policy"`
	Workload    Workload `toml:"workload"`
	Run         Run      `toml:"run"`
	// Controller names a trained model (yarngym learn's model.json) that
	// sets the policy's parameters every control interval of its task.
	Controller Controller `toml:"controller"`
}

// Controller names a trained controller.
type Controller struct {
	// Model is the model file, or the folder holding model.json; a relative
	// path is relative to the scenario file.
	Model string `toml:"model"`
}

// Cluster is a list of node groups.
type Cluster struct {
	// NodesPerRack assigns racks in node order; 0 means 20.
	NodesPerRack int         `toml:"nodes_per_rack"`
	Nodes        []NodeGroup `toml:"nodes"`
}

// NodeGroup is Count identical nodes.
type NodeGroup struct {
	Name     string  `toml:"name"`
	Count    int     `toml:"count"`
	VCores   int64   `toml:"vcores"`
	MemMB    int64   `toml:"mem_mb"`
	Cores    float64 `toml:"cores"`
	DiskMBps float64 `toml:"disk_mbps"`
	NetMBps  float64 `toml:"net_mbps"`
	Speed    float64 `toml:"speed"`
	// ReduceSlots > 0 makes the nodes Hadoop 1 TaskTrackers with typed
	// slots: vcores are map slots, reducers use reduce_slots of their own.
	ReduceSlots int `toml:"reduce_slots"`
}

// Model overrides the cluster model's constants (sim.DefaultModel).
type Model struct {
	HeartbeatMs       int64   `toml:"heartbeat_ms"`
	UsageSampleMs     int64   `toml:"usage_sample_ms"`
	AMStartupMs       int64   `toml:"am_startup_ms"`
	RackReadFactor    float64 `toml:"rack_read_factor"`
	OffRackReadFactor float64 `toml:"off_rack_read_factor"`
	SwapExponent      float64 `toml:"swap_exponent"`
	// DiskThrashExponent is sim.Model.DiskThrashExponent. Absent takes the
	// default (sim.DefaultDiskThrashExponent, a hard disk); 0 is ideal disk
	// sharing (e.g. an SSD), so the key is a pointer to tell the two apart.
	DiskThrashExponent *float64 `toml:"disk_thrash_exponent"`
	Replicas           int      `toml:"replicas"`
	GatedCPU           float64  `toml:"gated_cpu"`
	// ShuffleEventPollMs: how often a reducer asks for finished maps
	// (sim.Model.ShuffleEventPollMs; 0 the default, 1 s; negative: at once).
	ShuffleEventPollMs int64 `toml:"shuffle_event_poll_ms"`
	// Contention false runs every task at its nominal speed whatever its
	// node's usage (sim.Model.Uncontended; absent: true, the contended model).
	Contention *bool `toml:"contention"`
	// ReleaseAtHeartbeat false frees a finished container when its process
	// ends instead of at its node's next heartbeat (sim.Model.
	// ImmediateRelease; absent: true, as the ResourceManager does).
	ReleaseAtHeartbeat *bool `toml:"release_at_heartbeat"`
	// AMHeartbeatMs is the AM's allocate() interval (sim.Model.AMHeartbeatMs;
	// 0 the default, 1 s; negative: containers start at once).
	AMHeartbeatMs int64 `toml:"am_heartbeat_ms"`
}

// Policy names a registered policy, sets its parameters and its queues.
type Policy struct {
	Name   string             `toml:"name"`
	Params map[string]float64 `toml:"params"`
	Queues []Queue            `toml:"queues"`
}

// Queue is a scheduler queue.
type Queue struct {
	Name        string  `toml:"name"`
	Weight      float64 `toml:"weight"`
	Capacity    float64 `toml:"capacity"`
	MaxCapacity float64 `toml:"max_capacity"`
	// Fair: fair-scheduler.xml's minResources, maxResources (memory MB and
	// vCores; 0: none) and maxRunningApps (0: unbounded).
	MinResourcesMemMB  int64 `toml:"min_resources_mem_mb"`
	MinResourcesVCores int64 `toml:"min_resources_vcores"`
	MaxResourcesMemMB  int64 `toml:"max_resources_mem_mb"`
	MaxResourcesVCores int64 `toml:"max_resources_vcores"`
	MaxRunningApps     int   `toml:"max_running_apps"`
}

// Workload is explicit jobs and/or a generator with options.
type Workload struct {
	Generator string         `toml:"generator"`
	Options   toml.Primitive `toml:"options"`
	Jobs      []Job          `toml:"jobs"`
}

// Job is one job (or Count copies, Interval apart).
type Job struct {
	Name      string  `toml:"name"`
	App       string  `toml:"app"`
	Framework string  `toml:"framework"`
	Queue     string  `toml:"queue"`
	SubmitS   float64 `toml:"submit_s"`
	// Count is how many copies: absent means one; when given, at least 1
	// (a pointer, to tell count = 0, refused, from no count).
	Count     *int    `toml:"count"`
	IntervalS float64 `toml:"interval_s"`
	// SubmitJitterS delays each copy by a uniform draw in [0, SubmitJitterS)
	// seconds from the run's seed (0: none, and no draw).
	SubmitJitterS float64 `toml:"submit_jitter_s"`
	AMVCores      int64   `toml:"am_vcores"`
	AMMemMB       int64   `toml:"am_mem_mb"`
	GoalS         float64 `toml:"goal_s"`
	Stages        []Stage `toml:"stages"`
}

// Stage is a group of tasks of one job.
type Stage struct {
	Name string `toml:"name"`
	Kind string `toml:"kind"`
	// Tasks with DurationS (and DurationSigma for log-normal spread), or an
	// explicit DurationsS list.
	Tasks         int       `toml:"tasks"`
	DurationS     float64   `toml:"duration_s"`
	DurationSigma float64   `toml:"duration_sigma"`
	DurationsS    []float64 `toml:"durations_s"`
	VCores        int64     `toml:"vcores"`
	MemMB         int64     `toml:"mem_mb"`
	Profile       string    `toml:"profile"`
	SlowStart     float64   `toml:"slow_start"`
	// MaxRunning caps the containers the stage holds at once (0: no cap):
	// a Spark job's executor count when each task runs in its own container.
	MaxRunning int `toml:"max_running"`
	Replicas   int `toml:"replicas"`
}

// Run holds run settings.
type Run struct {
	MaxS   float64 `toml:"max_s"`
	StallS float64 `toml:"stall_s"`
	// LivelockS ends a run whose tasks keep running (or being killed and
	// started again) while none finishes (0: 24 h; sim.Config.LivelockMs).
	LivelockS float64 `toml:"livelock_s"`
	TimelineS float64 `toml:"timeline_s"`
	// MemoryLimitGB refuses scenarios estimated to need more memory than
	// this (0: DefaultMemoryLimitGB; see EstimateBytes).
	MemoryLimitGB float64 `toml:"memory_limit_gb"`
}
