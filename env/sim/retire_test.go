package sim_test

import (
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
)

// TestTasksLiveWhileJobsDo: a job's tasks are built when it arrives and
// released once its application is removed (its AM container reported
// complete; at its end for a job without an AM), so a run holds the tasks
// of the jobs in flight; and the run's results are those of building every
// task up front and keeping it (Config.KeepTasks): the same task IDs,
// block placements, records, per-job results and summary.
func TestTasksLiveWhileJobsDo(t *testing.T) {
	mr := func(name string, submitS float64, maps, reduces int, am bool) sim.JobSpec {
		j := sim.JobSpec{Name: name, SubmitMs: sim.Ms(submitS * 1000)}
		if am {
			j.AM = res(1, 512)
		}
		md, rd := make([]sim.Ms, maps), make([]sim.Ms, reduces)
		for i := range md {
			md[i] = sim.Ms(4000 + 500*i)
		}
		for i := range rd {
			rd[i] = 6000
		}
		j.Stages = []sim.StageSpec{
			{Name: "map", Kind: sim.KindMap, Req: res(1, 512), Profile: sim.MapProfile, DurationsMs: md},
			{Name: "reduce", Kind: sim.KindReduce, Req: res(1, 1024), Profile: sim.ReduceProfile, SlowStart: 0.5, DurationsMs: rd}}
		return j
	}
	jobs := []sim.JobSpec{mr("a", 0, 6, 2, true), mr("b", 20, 4, 1, false), mr("c", 120, 8, 2, true), mr("d", 121, 3, 1, true)}
	nodes := make([]sim.NodeSpec, 6)
	for i := range nodes {
		nodes[i] = sim.NodeSpec{Name: "n", Rack: i / 3, Cap: res(4, 8192)}
	}
	cfg := func(keep bool) sim.Config {
		return sim.Config{Nodes: nodes, Jobs: jobs, Policy: fifoPolicy(t), Seed: 3, RecordTasks: true, KeepTasks: keep,
			Model: sim.Model{HeartbeatMs: 1000, AMStartupMs: 2000}}
	}

	released := map[int32]bool{}
	lazy := simtest.Run(t, cfg(false), simtest.Watch(func(s *sim.Sim) {
		built := 0
		for _, j := range s.Jobs {
			switch gone := j.State == sim.JobDone && !slices.Contains(s.Finishing(), j); {
			case j.State == sim.JobFuture:
				if j.AM != nil || j.Stages != nil {
					t.Fatalf("t=%d: job %d has tasks before it arrives", s.Now(), j.ID)
				}
			case gone:
				if j.AM != nil || j.Stages != nil {
					t.Fatalf("t=%d: job %d ended and removed, its tasks still held", s.Now(), j.ID)
				}
				released[j.ID] = true
				built += j.Spec.TaskCount() + 1
				if j.Spec.AM.IsZero() {
					built--
				}
			default:
				if j.Stages == nil || (j.AM == nil) != j.Spec.AM.IsZero() {
					t.Fatalf("t=%d: job %d is %v without its tasks", s.Now(), j.ID, j.State)
				}
				for _, st := range j.Stages {
					for _, tk := range st.Tasks {
						if s.Task(tk.ID) != tk {
							t.Fatalf("t=%d: %s is not Tasks[%d]", s.Now(), tk, tk.ID)
						}
						built++
					}
				}
				if j.AM != nil {
					built++
				}
			}
		}
		if built != int(s.TaskIDs()) {
			t.Fatalf("t=%d: %d tasks built for the jobs arrived, %d task IDs handed out", s.Now(), built, s.TaskIDs())
		}
	}))
	// The run ends with the last job's end: its AM container is never
	// reported complete, and its tasks stay.
	last := lazy.Finishing()
	if len(last) != 1 || len(released) != len(jobs)-1 || released[last[0].ID] {
		t.Fatalf("released the tasks of jobs %v, want all but the last to end (%v)", released, last)
	}
	for id := range lazy.TaskIDs() {
		if tk := lazy.Task(id); tk != nil && tk.Job != last[0] {
			t.Errorf("task %d (%s) still held after its job ended", id, tk)
		}
	}

	kept := simtest.Run(t, cfg(true), simtest.KeepTasks())
	if got, want := lazy.Summary(), kept.Summary(); got != want {
		t.Errorf("summary %+v, with every task kept %+v", got, want)
	}
	if got, want := lazy.TaskRecords(), kept.TaskRecords(); !reflect.DeepEqual(got, want) {
		t.Errorf("task records differ from the run that keeps every task:\n%v\n%v", got, want)
	}
	if got, want := lazy.JobResults(), kept.JobResults(); !reflect.DeepEqual(got, want) {
		t.Errorf("job results %+v, with every task kept %+v", got, want)
	}
	if all := kept.AllTasks(); len(all) != int(lazy.TaskIDs()) || all[len(all)-1] == nil || kept.Jobs[0].Stages == nil {
		t.Errorf("KeepTasks: %d tasks (the lazy run built %d), the last %v, job 0's stages %v", len(all), lazy.TaskIDs(), all[len(all)-1], kept.Jobs[0].Stages)
	}
}

// TestKeepTasksBuildsUpFront: with Config.KeepTasks every job's tasks exist
// as soon as the run is built (a tool reads their block placements before
// running, as the oracle's export does), with the IDs and replicas a run
// that builds them on arrival gives them.
func TestKeepTasksBuildsUpFront(t *testing.T) {
	nodes := make([]sim.NodeSpec, 8)
	for i := range nodes {
		nodes[i] = sim.NodeSpec{Name: "n", Rack: i / 4, Cap: res(4, 4096)}
	}
	a, b := job("a", 0, 3, res(1, 512), 10, flat(1, 100, 0)), job("b", 5, 4, res(1, 512), 10, flat(1, 100, 0))
	a.Stages[0].Kind, b.Stages[0].Kind = sim.KindMap, sim.KindMap
	mk := func(keep bool) *sim.Sim {
		s, err := sim.New(sim.Config{Nodes: nodes, Jobs: []sim.JobSpec{a, b}, Policy: fifoPolicy(t), Seed: 9, KeepTasks: keep})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	up, lazy := mk(true), mk(false)
	if len(up.AllTasks()) != 7 || lazy.TaskIDs() != 0 {
		t.Fatalf("after New: %d tasks with KeepTasks (want 7), %d without (want 0)", len(up.AllTasks()), lazy.TaskIDs())
	}
	lazy.RunUntil(5001) // both jobs have arrived, none has ended
	if lazy.TaskIDs() != 7 {
		t.Fatalf("%d tasks built once both jobs arrived, want 7", lazy.TaskIDs())
	}
	for i, tk := range up.AllTasks() {
		if l := lazy.Task(int32(i)); l.ID != tk.ID || l.Job.ID != tk.Job.ID || l.Index != tk.Index || !slices.Equal(l.Replicas, tk.Replicas) {
			t.Errorf("task %d: built on arrival as %s on %v, up front as %s on %v", i, l, l.Replicas, tk, tk.Replicas)
		}
	}
}

// TestTaskRecordSize: a run that writes its tasks holds a record of every
// attempt (3.35M in scale-50k): it stays at 48 bytes.
func TestTaskRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(sim.TaskRecord{}); n != 48 {
		t.Errorf("sim.TaskRecord is %d bytes, want 48", n)
	}
}
