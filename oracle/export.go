// Package oracle compares yarngym's stock schedulers with Hadoop's own: it
// exports a run's realised workload in the exchange format (FORMAT.md), has
// the driver in this folder (Hadoop 3.3.6's FairScheduler or
// CapacityScheduler in simulated time, a Maven module) replay it, and puts
// each job's completion time beside yarngym's.
package oracle

import (
	"fmt"
	"math"
	"strconv"

	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/capacity"
)

// FormatVersion names the exchange format; a reader refuses any other.
const FormatVersion = "yarngym-oracle/1"

// AMHeartbeatMs is the MapReduce AM's allocate() interval
// (yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms, default 1000):
// the driver's AMs pick up their containers on it.
const AMHeartbeatMs = 1000

// Document is the exchange document (FORMAT.md).
type Document struct {
	Format         string            `json:"format"`
	Scenario       string            `json:"scenario"`
	Seed           uint64            `json:"seed"`
	Scheduler      string            `json:"scheduler"`
	Conf           map[string]string `json:"conf"`
	AllocationFile string            `json:"allocation_file"`
	Model          Model             `json:"model"`
	Nodes          []Node            `json:"nodes"`
	Jobs           []Job             `json:"jobs"`
}

// Model holds the execution and AM constants both sides share.
type Model struct {
	HeartbeatMs        int64   `json:"heartbeat_ms"`
	AMHeartbeatMs      int64   `json:"am_heartbeat_ms"`
	AMStartupMs        int64   `json:"am_startup_ms"`
	RackReadFactor     float64 `json:"rack_read_factor"`
	OffRackReadFactor  float64 `json:"off_rack_read_factor"`
	ShuffleEventPollMs int64   `json:"shuffle_event_poll_ms"`
	ReduceRampupLimit  float64 `json:"reduce_rampup_limit"`
	ReducePreemptMs    int64   `json:"reduce_preempt_ms"`
	AMTickMs           int64   `json:"am_tick_ms"`
	// FairUpdateFirstMs is the FairScheduler's first update(), then every
	// yarn.scheduler.fair.update-interval-ms: yarngym's update cycle starts
	// at a seeded phase (the scheduler's clock starts with the RM), and the
	// driver runs its updates on the same grid.
	FairUpdateFirstMs int64 `json:"fair_update_first_ms,omitempty"`
	// MonitorFirstMs is the CapacityScheduler preemption monitor's first
	// run, then every monitoring_interval, when preemption is on: yarngym's
	// control cycle of its capacity.Preemption.
	MonitorFirstMs int64 `json:"monitor_first_ms,omitempty"`
}

// Node is one node manager.
type Node struct {
	ID               int     `json:"id"`
	Host             string  `json:"host"`
	Rack             string  `json:"rack"`
	VCores           int64   `json:"vcores"`
	MemMB            int64   `json:"mem_mb"`
	Speed            float64 `json:"speed"`
	FirstHeartbeatMs int64   `json:"first_heartbeat_ms"`
}

// Res is a container request.
type Res struct {
	VCores int64 `json:"vcores"`
	MemMB  int64 `json:"mem_mb"`
}

// Job is one application.
type Job struct {
	ID        int    `json:"id"`
	Name      string `json:"name"`
	App       string `json:"app"`
	Framework string `json:"framework"`
	Queue     string `json:"queue"`
	SubmitMs  int64  `json:"submit_ms"`
	AM        *Res   `json:"am"`
	// AMStartupMs: the job's own AM start-up (sim.JobSpec.AMStartupMs),
	// omitted when it takes the model's.
	AMStartupMs int64   `json:"am_startup_ms,omitempty"`
	Stages      []Stage `json:"stages"`
}

// Stage is a group of tasks the AM asks for at one priority.
type Stage struct {
	Index      int     `json:"index"`
	Name       string  `json:"name"`
	Kind       string  `json:"kind"`
	VCores     int64   `json:"vcores"`
	MemMB      int64   `json:"mem_mb"`
	Priority   int     `json:"priority"`
	SlowStart  float64 `json:"slow_start"`
	MaxRunning int     `json:"max_running"`
	// PartitionExecutors: the stage's max_running containers are executors
	// that run its tasks one after another (sim.StageSpec.
	// PartitionExecutors); omitted when false.
	PartitionExecutors bool    `json:"partition_executors,omitempty"`
	Phases             []Phase `json:"phases"`
	Tasks              []Task  `json:"tasks"`
}

// Phase is one sub-phase of a task (sim.Phase, as far as it sets run time).
type Phase struct {
	Name    string  `json:"name"`
	Frac    float64 `json:"frac,omitempty"`
	Read    bool    `json:"read,omitempty"`
	Shuffle bool    `json:"shuffle,omitempty"`
	WallMs  *int64  `json:"wall_ms,omitempty"`
}

// Task is one task's realised draw.
type Task struct {
	Index      int     `json:"index"`
	DurationMs int64   `json:"duration_ms"`
	Replicas   []int   `json:"replicas,omitempty"`
	Phases     []Phase `json:"phases,omitempty"` // its own profile's, when not its stage's
}

// Export builds the exchange document of a run that has not started: s
// holds the realised workload (durations drawn, map blocks placed). It
// refuses what the oracle cannot compare: a policy with no Hadoop
// counterpart, a contended model, a typed-slot cluster.
func Export(s *sim.Sim, scenario string, seed uint64, sp base.Spec) (*Document, error) {
	m := s.Model()
	if !m.Uncontended {
		return nil, fmt.Errorf("the oracle compares schedulers on the uncontended model (model.contention = false): " +
			"Hadoop's node managers do not share a node's CPU, disk or memory between tasks as yarngym's model does")
	}
	conf, alloc, err := hadoopConf(s, sp)
	if err != nil {
		return nil, err
	}
	d := &Document{Format: FormatVersion, Scenario: scenario, Seed: seed, Scheduler: s.Policy().Name, Conf: conf, AllocationFile: alloc,
		Model: Model{HeartbeatMs: int64(m.HeartbeatMs), AMHeartbeatMs: AMHeartbeatMs, AMStartupMs: int64(m.AMStartupMs),
			RackReadFactor: m.RackReadFactor, OffRackReadFactor: m.OffRackReadFactor, ShuffleEventPollMs: int64(m.ShuffleEventPollMs),
			ReduceRampupLimit: m.ReduceRampupLimit, ReducePreemptMs: int64(m.ReducePreemptMs), AMTickMs: int64(m.AMTickMs)}}
	if d.Scheduler == "fair" {
		d.Model.FairUpdateFirstMs = int64(s.ControlFirstMs(0)) // fair.New's only control cycle: its update()
	}
	for i, c := range s.Policy().Controls {
		if _, ok := c.(*capacity.Preemption); ok {
			d.Model.MonitorFirstMs = int64(s.ControlFirstMs(i))
		}
	}
	if m.ShuffleEventPollMs < 0 {
		return nil, fmt.Errorf("model.shuffle_event_poll_ms is negative (reducers learn of maps at once): Hadoop's reducers poll their AM")
	}
	for _, n := range s.Nodes {
		if n.Spec.ReduceSlots > 0 {
			return nil, fmt.Errorf("node %s is a Hadoop 1 TaskTracker with typed slots: Hadoop 3's schedulers run YARN containers", n.Spec.Name)
		}
		d.Nodes = append(d.Nodes, Node{ID: int(n.ID), Host: fmt.Sprintf("n%d", n.ID), Rack: fmt.Sprintf("/rack%d", n.Spec.Rack),
			VCores: n.Spec.Cap.VCores, MemMB: n.Spec.Cap.MemMB, Speed: n.Spec.Speed, FirstHeartbeatMs: int64(s.HeartbeatOffsetMs(n))})
	}
	for _, j := range s.Jobs {
		d.Jobs = append(d.Jobs, exportJob(j))
	}
	return d, nil
}

func exportJob(j *sim.Job) Job {
	sp := j.Spec
	out := Job{ID: int(j.ID), Name: sp.Name, App: sp.App, Framework: sp.Framework, Queue: base.QueueOf(j), SubmitMs: int64(sp.SubmitMs), AMStartupMs: int64(sp.AMStartupMs)}
	if !sp.AM.IsZero() {
		out.AM = &Res{VCores: sp.AM.VCores, MemMB: sp.AM.MemMB}
	}
	for _, st := range j.Stages {
		ss := st.Spec
		es := Stage{Index: st.Index, Name: ss.Name, Kind: ss.Kind.String(), VCores: ss.Req.VCores, MemMB: ss.Req.MemMB,
			Priority: Priority(st.Index, len(j.Stages)), SlowStart: ss.SlowStart, MaxRunning: ss.MaxRunning,
			PartitionExecutors: ss.PartitionExecutors, Phases: phases(ss.Profile)}
		for i, t := range st.Tasks {
			et := Task{Index: t.Index, DurationMs: int64(t.DurMs)}
			if t.Kind == sim.KindMap {
				for _, r := range t.Replicas {
					et.Replicas = append(et.Replicas, int(r))
				}
			}
			if ss.Profiles != nil && ss.Profiles[i] != nil {
				et.Phases = phases(ss.Profiles[i])
			}
			es.Tasks = append(es.Tasks, et)
		}
		out.Stages = append(out.Stages, es)
	}
	return out
}

// Priority is stage i's request priority among a job's n stages: a later
// stage outranks an earlier one (a smaller number is served first), as
// MapReduce's AM asks reducers at 10 before maps at 20
// (RMContainerAllocator PRIORITY_REDUCE, PRIORITY_MAP) and as yarngym's
// NextTask serves stages last first.
func Priority(i, n int) int { return 10 * (n - i) }

func phases(p *sim.Profile) []Phase {
	var out []Phase
	for _, ph := range p.Phases {
		e := Phase{Name: ph.Name, Read: ph.Read, Shuffle: ph.Shuffle}
		if ph.Wall {
			w := int64(ph.WallMs)
			e.WallMs = &w
		} else {
			e.Frac = ph.Frac
		}
		out = append(out, e)
	}
	return out
}

// fmtFloat writes a configuration value as Hadoop parses it.
func fmtFloat(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
