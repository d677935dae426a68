package sim

import "fmt"

// Building a run: its jobs (validated up front, a job at a time) and their
// tasks, built when the job arrives and released once it has ended (see
// materialize and retire), and the HDFS placement of the maps' input blocks.
//
// A job's tasks exist while they matter. New keeps every job's JobSpec (its
// compact description: the stages' requests and each task's duration, drawn
// by the workload up front) and a small Job; the job's Task and Stage
// objects, the bulk of a run's memory (a few hundred bytes a task), are
// built on its arrival and dropped when its application is removed, so that
// a run holds the tasks of the jobs in flight rather than of every job. The
// results are those of building every task up front: jobs arrive in job
// order (sorted by submission), so tasks get the same IDs (their usage-noise
// seeds derive from them) and the blocks the same replicas (placeBlock's
// draws are the run's only use of its stream, in the same order).

// addJob validates spec and, when build, adds its job (without its tasks:
// materialize builds them at arrival).
func (s *Sim) addJob(spec *JobSpec, maxCap Res, build bool) error {
	if spec.SubmitMs < 0 {
		return fmt.Errorf("job %q: negative submit time", spec.Name)
	}
	if len(spec.Stages) == 0 {
		return fmt.Errorf("job %q has no stages", spec.Name)
	}
	if spec.CommitMs < 0 {
		return fmt.Errorf("job %q: negative commit time", spec.Name)
	}
	if spec.AMStartupMs < 0 {
		return fmt.Errorf("job %q: negative AM start-up time", spec.Name)
	}
	if !spec.AM.IsZero() && !spec.AM.Fits(maxCap) {
		return fmt.Errorf("job %q: AM request %v is larger than any node", spec.Name, spec.AM)
	}
	for si := range spec.Stages {
		ss := &spec.Stages[si]
		if ss.Req.VCores < 0 || ss.Req.MemMB < 0 || ((ss.Req.VCores == 0 || ss.Req.MemMB == 0) && !s.slotOnlyOK(ss.Kind)) {
			return fmt.Errorf("job %q stage %q: request %v must be positive (zero only for reducers on typed-slot nodes)", spec.Name, ss.Name, ss.Req)
		}
		if !ss.Req.Fits(maxCap) {
			return fmt.Errorf("job %q stage %q: request %v is larger than any node", spec.Name, ss.Name, ss.Req)
		}
		if ss.NumTasks() == 0 {
			return fmt.Errorf("job %q stage %q has no tasks", spec.Name, ss.Name)
		}
		if ss.Profile == nil {
			return fmt.Errorf("job %q stage %q has no usage profile", spec.Name, ss.Name)
		}
		if err := ss.Profile.Validate(); err != nil {
			return fmt.Errorf("job %q stage %q: %w", spec.Name, ss.Name, err)
		}
		if ss.MaxRunning < 0 {
			return fmt.Errorf("job %q stage %q: max running %d is negative", spec.Name, ss.Name, ss.MaxRunning)
		}
		if ss.PartitionExecutors && ss.MaxRunning <= 0 {
			return fmt.Errorf("job %q stage %q: partition executors need max running > 0 (the executor count)", spec.Name, ss.Name)
		}
		if ss.SlowStart < 0 || ss.SlowStart > 1 {
			return fmt.Errorf("job %q stage %q: slow-start %v outside [0, 1]", spec.Name, ss.Name, ss.SlowStart)
		}
		if len(ss.DurationsMs) > 0 && ss.Drawn.Count != 0 {
			return fmt.Errorf("job %q stage %q: both durations and drawn durations", spec.Name, ss.Name)
		}
		if ss.Drawn.Count < 0 || !(ss.Drawn.MedianS >= 0) || !(ss.Drawn.Sigma >= 0) {
			return fmt.Errorf("job %q stage %q: drawn durations %+v: count, median and sigma must not be negative", spec.Name, ss.Name, ss.Drawn)
		}
		if ss.Profiles != nil && len(ss.Profiles) != ss.NumTasks() {
			return fmt.Errorf("job %q stage %q: %d per-task profiles for %d tasks", spec.Name, ss.Name, len(ss.Profiles), ss.NumTasks())
		}
		if ss.Hosts != nil && len(ss.Hosts) != ss.NumTasks() {
			return fmt.Errorf("job %q stage %q: %d host hints for %d tasks", spec.Name, ss.Name, len(ss.Hosts), ss.NumTasks())
		}
		for ti, p := range ss.Profiles {
			if p == nil {
				continue
			}
			if err := p.Validate(); err != nil {
				return fmt.Errorf("job %q stage %q task %d: %w", spec.Name, ss.Name, ti, err)
			}
		}
		for ti, d := range ss.DurationsMs {
			if d < 0 {
				return fmt.Errorf("job %q stage %q task %d: negative duration", spec.Name, ss.Name, ti)
			}
		}
	}
	if build {
		s.Jobs = append(s.Jobs, &Job{ID: int32(len(s.Jobs)), Spec: spec, StartMs: -1, FinishMs: -1, active: -1})
	}
	return nil
}

// TaskCount is the number of tasks of the job's stages (its AM not counted).
func (spec *JobSpec) TaskCount() int {
	n := 0
	for si := range spec.Stages {
		n += spec.Stages[si].NumTasks()
	}
	return n
}

// materialize builds job j's tasks and stages from its spec (validated by
// addJob) as it arrives: IDs follow on from the tasks built so far, and
// maps' blocks are placed now.
func (s *Sim) materialize(j *Job) {
	spec := j.Spec
	n := spec.TaskCount()
	if !spec.AM.IsZero() {
		n++
	}
	// The job's tasks are allocated together (see Task).
	chunk := make([]Task, n)
	if !spec.AM.IsZero() {
		j.AM = s.newTask(&chunk[0], j, nil, 0, KindAM, spec.AM, 0, AMProfile)
		chunk = chunk[1:]
	}
	j.Stages = make([]*Stage, 0, len(spec.Stages))
	for si := range spec.Stages {
		ss := &spec.Stages[si]
		st := &Stage{Index: si, Spec: ss, Tasks: make([]*Task, 0, ss.NumTasks()), id: int32(len(s.stages))}
		st.rampup = s.rampupStage(j, st)
		if s.asksStage(j, st) {
			st.asks = &mapAsks{rmHost: map[int32]int32{}, rmRack: map[int32]int32{}, amHost: map[int32]int32{}, amRack: map[int32]int32{}}
		}
		if s.cappedStage(j, st) {
			st.capped, st.amLimit = true, -1
			j.capped = true
		}
		if ss.PartitionExecutors {
			j.hasExecutors = true
			st.waitReg = st.capped // the driver waits for its executors (executors.go)
		}
		s.stages = append(s.stages, st)
		st.phases = ss.Profile.Phases
		replicas := ss.BlockReplicas
		if replicas <= 0 {
			replicas = s.model.Replicas
		}
		for ti := range ss.NumTasks() {
			d := ss.DurationMs(ti)
			prof := ss.Profile
			if ss.Profiles != nil && ss.Profiles[ti] != nil {
				prof = ss.Profiles[ti]
			}
			t := s.newTask(&chunk[0], j, st, ti, ss.Kind, ss.Req, d, prof)
			chunk = chunk[1:]
			if ss.Kind == KindMap {
				if ss.Hosts != nil && ss.Hosts[ti] >= 0 {
					t.Replicas = []int32{ss.Hosts[ti] % int32(len(s.Nodes))}
				} else {
					t.Replicas = s.placeBlock(replicas)
				}
			}
			st.Tasks = append(st.Tasks, t)
			j.tasksLeft++
		}
		j.Stages = append(j.Stages, st)
	}
}

// retire releases ended job j's tasks and stages once its application is
// removed (nothing of the engine reaches them any more; what the run
// writes, its TaskRecords and the Job itself, is kept): Job.AM and
// Job.Stages become nil and so do their entries in Sim.Tasks.
// Config.KeepTasks keeps them instead.
func (s *Sim) retire(j *Job) {
	if s.cfg.KeepTasks || j.Stages == nil {
		return
	}
	if j.AM != nil {
		s.tasks.release(j.AM.ID)
	}
	for _, st := range j.Stages {
		for _, t := range st.Tasks {
			s.tasks.release(t.ID)
		}
		s.stages[st.id] = nil
	}
	// The excess containers' list is empty once the application is removed,
	// but its array would stay with the Job for the rest of the run.
	j.AM, j.Stages, j.excess = nil, nil, nil
}

// taskLabel derives each task's usage-noise seed (DeriveSeed).
var taskLabel = HashString("task")

func (s *Sim) newTask(t *Task, j *Job, st *Stage, idx int, kind TaskKind, req Res, dur Ms, prof *Profile) *Task {
	*t = Task{ID: s.tasks.next(), Job: j, Stage: st, Index: idx, Kind: kind, Req: req, DurMs: dur,
		phases: prof.Phases, prof: prof, StartMs: -1, FirstStartMs: -1, FinishMs: -1, pos: -1, pollAt: -1}
	t.rngSeed = DeriveSeed(s.cfg.Seed, taskLabel, uint64(t.ID))
	t.abs = kind != KindAM && prof.Absolute
	t.jit = prof.Jitter
	s.tasks.add(t)
	return t
}

// Task returns the task of ID id: one of a job arrived and not yet
// removed (with Config.KeepTasks, any built), else nil.
func (s *Sim) Task(id int32) *Task { return s.tasks.at(id) }

// TaskIDs is the number of task IDs handed out so far: every ID is below
// it (parts that keep something per task size their tables by it).
func (s *Sim) TaskIDs() int32 { return s.tasks.next() }

// AllTasks returns every task built, by ID, with Config.KeepTasks (nil
// without: a job's tasks are released when its application is removed).
func (s *Sim) AllTasks() []*Task {
	if !s.cfg.KeepTasks {
		return nil
	}
	return s.tasks.all()
}

// placeBlock places an HDFS-like block: the first replica on a random node,
// the second on a node of another rack, the rest on the second one's rack
// (HDFS's default placement policy).
func (s *Sim) placeBlock(replicas int) []int32 {
	n := len(s.Nodes)
	if replicas > n {
		replicas = n
	}
	// Blocks are placed once and never change: carve them from a shared
	// buffer rather than allocating each.
	if cap(s.replicaBuf)-len(s.replicaBuf) < replicas {
		s.replicaBuf = make([]int32, 0, max(4096, replicas))
	}
	out := s.replicaBuf[len(s.replicaBuf) : len(s.replicaBuf) : len(s.replicaBuf)+replicas]
	s.replicaBuf = s.replicaBuf[:len(s.replicaBuf)+replicas]
	has := func(id int32) bool {
		for _, x := range out {
			if x == id {
				return true
			}
		}
		return false
	}
	first := int32(s.rng.IntN(n))
	out = append(out, first)
	for len(out) < replicas {
		var want func(int32) bool
		switch {
		case len(out) == 1 && s.racks > 1:
			r := s.rackOf[first]
			want = func(x int32) bool { return s.rackOf[x] != r }
		case len(out) >= 2:
			r := s.rackOf[out[1]]
			if members := s.rackNodes[r]; n > directRackDraw*len(members) {
				// Drawing nodes of the whole cluster until one is on rack
				// r would take n/len(members) draws: draw among its
				// members instead (the same uniform choice).
				out = append(out, s.drawOnRack(members, r, out, has))
				continue
			}
			want = func(x int32) bool { return s.rackOf[x] == r }
		default:
			want = func(int32) bool { return true }
		}
		picked := int32(-1)
		for try := 0; try < 4*n && picked < 0; try++ {
			c := int32(s.rng.IntN(n))
			if !has(c) && want(c) {
				picked = c
			}
		}
		if picked < 0 { // no node fits the rack rule: take any other node
			for try := 0; picked < 0; try++ {
				c := int32(s.rng.IntN(n))
				if !has(c) {
					picked = c
				}
			}
		}
		out = append(out, picked)
	}
	return out
}

// directRackDraw: placeBlock draws a replica on a given rack among the
// rack's nodes when the cluster has more than this many times as many nodes
// (a large cluster of small racks); below, it draws from the whole cluster
// until a node of the rack comes up, as it always has (the same results as
// before for every cluster of up to 64 racks' worth of nodes).
const directRackDraw = 64

// drawOnRack picks a node of members (rack r) not yet holding a replica
// (out), uniformly, or if every one does, any node that does not.
func (s *Sim) drawOnRack(members []int32, r int32, out []int32, has func(int32) bool) int32 {
	free := len(members)
	for _, x := range out {
		if s.rackOf[x] == r {
			free--
		}
	}
	if free > 0 {
		k := s.rng.IntN(free)
		for _, m := range members {
			if !has(m) {
				if k == 0 {
					return m
				}
				k--
			}
		}
	}
	for {
		if c := int32(s.rng.IntN(len(s.Nodes))); !has(c) {
			return c
		}
	}
}
