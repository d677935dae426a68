package scenario

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"yarngym/data"
	"yarngym/env/policy"
	"yarngym/env/sim"
	"yarngym/env/workload"
	"yarngym/registry"
)

// validate checks everything that does not depend on the seed, and runs the
// generator once so bad options fail at load time, not mid-study.
func (sc *Scenario) validate() error {
	f := &sc.File
	bad := func(key, format string, a ...any) error {
		return &Error{Source: sc.Origin(), Key: key, Reason: fmt.Sprintf(format, a...)}
	}
	if len(f.Cluster.Nodes) == 0 {
		return bad("cluster.nodes", "the cluster needs at least one node group")
	}
	if f.Cluster.NodesPerRack < 0 {
		return bad("cluster.nodes_per_rack", "must not be negative")
	}
	var maxCap sim.Res
	for i, g := range f.Cluster.Nodes {
		k := fmt.Sprintf("cluster.nodes[%d]", i)
		switch {
		case g.Count < 1:
			return bad(k+".count", "must be at least 1, got %d", g.Count)
		case g.VCores < 1:
			return bad(k+".vcores", "must be at least 1, got %d", g.VCores)
		case g.MemMB < 1:
			return bad(k+".mem_mb", "must be at least 1, got %d", g.MemMB)
		case g.Cores < 0, g.DiskMBps < 0, g.NetMBps < 0, g.Speed < 0:
			return bad(k, "cores, disk_mbps, net_mbps and speed must not be negative")
		case g.ReduceSlots < 0:
			return bad(k+".reduce_slots", "must not be negative, got %d", g.ReduceSlots)
		}
		maxCap = maxCap.Max(sim.Res{VCores: g.VCores, MemMB: g.MemMB})
	}
	m := f.Model
	switch {
	case m.HeartbeatMs < 0:
		return bad("model.heartbeat_ms", "must not be negative")
	case m.UsageSampleMs < 0:
		return bad("model.usage_sample_ms", "must not be negative")
	case m.RackReadFactor < 0 || m.RackReadFactor > 1:
		return bad("model.rack_read_factor", "%v outside [0, 1]", m.RackReadFactor)
	case m.OffRackReadFactor < 0 || m.OffRackReadFactor > 1:
		return bad("model.off_rack_read_factor", "%v outside [0, 1]", m.OffRackReadFactor)
	case m.SwapExponent < 0:
		return bad("model.swap_exponent", "must not be negative")
	case m.DiskThrashExponent != nil && !(*m.DiskThrashExponent >= 0):
		return bad("model.disk_thrash_exponent", "must not be negative, got %v", *m.DiskThrashExponent)
	case m.Replicas < 0:
		return bad("model.replicas", "must not be negative")
	case m.GatedCPU < 0 || m.GatedCPU > 1:
		return bad("model.gated_cpu", "%v outside [0, 1]", m.GatedCPU)
	}
	if f.Run.MaxS < 0 || f.Run.StallS < 0 || f.Run.LivelockS < 0 || f.Run.TimelineS < 0 {
		return bad("run", "max_s, stall_s, livelock_s and timeline_s must not be negative")
	}
	if f.Run.TimelineS > 0 && f.Run.TimelineS < 0.001 {
		return bad("run.timeline_s", "%v s is below the engine's resolution of 1 ms (it would sample nothing); want 0 (none) or at least 0.001", f.Run.TimelineS)
	}
	if !(f.Run.MemoryLimitGB >= 0) {
		return bad("run.memory_limit_gb", "must not be negative, got %v", f.Run.MemoryLimitGB)
	}
	if f.Policy.Name == "" {
		return bad("policy.name", "a scenario names its policy")
	}
	// --set parameters are checked by Build against the policy actually
	// run, which a caller may override (yarngym run X --policy opera --set
	// relief_policy=1); here only the file's own parameters are.
	sets := sc.ParamSets
	sc.ParamSets = nil
	defer func() { sc.ParamSets = sets }()
	if _, err := sc.policy(f.Policy.Name); err != nil {
		return err
	}
	for i, q := range f.Policy.Queues {
		if q.Name == "" {
			return bad(fmt.Sprintf("policy.queues[%d].name", i), "a queue needs a name")
		}
		for _, c := range []struct {
			key string
			v   int64
		}{{"min_resources_mem_mb", q.MinResourcesMemMB}, {"min_resources_vcores", q.MinResourcesVCores},
			{"max_resources_mem_mb", q.MaxResourcesMemMB}, {"max_resources_vcores", q.MaxResourcesVCores}, {"max_running_apps", int64(q.MaxRunningApps)}} {
			if c.v < 0 {
				return bad(fmt.Sprintf("policy.queues[%d].%s", i, c.key), "%d is negative (0: none)", c.v)
			}
		}
	}
	if len(f.Workload.Jobs) == 0 && f.Workload.Generator == "" {
		return bad("workload", "no jobs and no generator")
	}
	for i, j := range f.Workload.Jobs {
		if err := sc.validateJob(i, j, maxCap); err != nil {
			return err
		}
	}
	// Before anything is built: an absurd cluster or job count would take
	// minutes and all the memory to build.
	size, sizeKey := sc.explicitSize()
	// A generator's tasks are counted (and warned of) once it has run.
	large, err := sc.checkSize(size, sizeKey, f.Workload.Generator == "")
	if err != nil {
		return err
	}
	if f.Workload.Generator != "" {
		src, err := sc.compile()
		if err != nil {
			return err
		}
		sc.source = src
	} else if large {
		// The jobs are counted exactly and checked field by field above;
		// building a large run twice (here and to run it) would double the
		// wait. The engine still checks it before it runs.
		return nil
	}
	cfg, err := sc.Build(f.Seed, "")
	if err != nil {
		return err
	}
	if len(cfg.Jobs) == 0 {
		return bad("workload", "the workload has no jobs")
	}
	if f.Workload.Generator != "" { // the generator's tasks are known now
		jobs := sc.configSize(&cfg)
		if EstimateBytes(jobs) > size.Nodes*BytesPerNode {
			sizeKey = "workload.options"
		}
		size.Jobs, size.Tasks, size.Live = jobs.Jobs, jobs.Tasks, jobs.Live
		if large, err = sc.checkSize(size, sizeKey, true); err != nil || large {
			return err // large: as above, the engine checks it before it runs
		}
	}
	// The engine is the final judge of generated jobs (a generator's request
	// may not fit this cluster): check them now rather than fail mid-study.
	if err := sim.Validate(cfg); err != nil {
		key := "workload.jobs"
		if f.Workload.Generator != "" {
			key = "workload.options"
		}
		return bad(key, "%v", err)
	}
	return nil
}

func (sc *Scenario) validateJob(i int, j Job, maxCap sim.Res) error {
	k := fmt.Sprintf("workload.jobs[%d]", i)
	bad := func(key, format string, a ...any) error {
		return &Error{Source: sc.Origin(), Key: key, Reason: fmt.Sprintf(format, a...)}
	}
	switch {
	case j.SubmitS < 0:
		return bad(k+".submit_s", "must not be negative, got %v", j.SubmitS)
	case j.Count != nil && *j.Count < 1:
		return bad(k+".count", "must be at least 1 (omit it for one job), got %d", *j.Count)
	case j.IntervalS < 0:
		return bad(k+".interval_s", "must not be negative")
	case j.SubmitJitterS < 0:
		return bad(k+".submit_jitter_s", "must not be negative, got %v", j.SubmitJitterS)
	case j.GoalS < 0:
		return bad(k+".goal_s", "must not be negative")
	case j.AMVCores < 0 || j.AMMemMB < 0 || (j.AMVCores == 0) != (j.AMMemMB == 0):
		return bad(k+".am_vcores", "am_vcores and am_mem_mb are both positive (a job with an AM) or both 0 (none)")
	case !(sim.Res{VCores: j.AMVCores, MemMB: j.AMMemMB}).Fits(maxCap):
		return bad(k+"."+overKey("am_", j.AMMemMB > maxCap.MemMB), "AM request <%d vCores, %d MB> is larger than any node (largest <%d, %d>)",
			j.AMVCores, j.AMMemMB, maxCap.VCores, maxCap.MemMB)
	case len(j.Stages) == 0:
		return bad(k+".stages", "a job needs at least one stage")
	}
	for si, st := range j.Stages {
		sk := fmt.Sprintf("%s.stages[%d]", k, si)
		if _, ok := sim.ParseTaskKind(st.Kind); !ok {
			return bad(sk+".kind", "%q is not map, reduce, executor or task", st.Kind)
		}
		if st.VCores < 1 || st.MemMB < 1 {
			return bad(sk+"."+overKey("", st.MemMB < 1 && st.VCores >= 1), "vcores and mem_mb must be at least 1")
		}
		if !(sim.Res{VCores: st.VCores, MemMB: st.MemMB}).Fits(maxCap) {
			return bad(sk+"."+overKey("", st.MemMB > maxCap.MemMB), "request <%d vCores, %d MB> is larger than any node (largest <%d, %d>)", st.VCores, st.MemMB, maxCap.VCores, maxCap.MemMB)
		}
		if len(st.DurationsS) == 0 && st.Tasks < 1 {
			return bad(sk+".tasks", "must be at least 1 (or give durations_s)")
		}
		if len(st.DurationsS) > 0 && st.Tasks != 0 && st.Tasks != len(st.DurationsS) {
			return bad(sk+".tasks", "%d tasks but %d durations_s", st.Tasks, len(st.DurationsS))
		}
		if st.DurationS < 0 {
			return bad(sk+".duration_s", "must not be negative, got %v", st.DurationS)
		}
		if st.DurationSigma < 0 {
			return bad(sk+".duration_sigma", "must not be negative, got %v", st.DurationSigma)
		}
		if len(st.DurationsS) == 0 && st.DurationS == 0 {
			return bad(sk+".duration_s", "must be positive")
		}
		for _, d := range st.DurationsS {
			if d < 0 {
				return bad(sk+".durations_s", "durations must not be negative, got %v", d)
			}
		}
		if st.MaxRunning < 0 {
			return bad(sk+".max_running", "%d is negative (0 means no cap)", st.MaxRunning)
		}
		if st.SlowStart < 0 || st.SlowStart > 1 {
			return bad(sk+".slow_start", "%v outside [0, 1]", st.SlowStart)
		}
		if st.Profile != "" {
			if _, ok := sim.Profiles[st.Profile]; !ok {
				return bad(sk+".profile", "unknown profile %q%s (known: %s)", st.Profile, registry.DidYouMean(st.Profile, strings.Split(profileNames(), ", ")), profileNames())
			}
		}
	}
	return nil
}

func profileNames() string {
	var n []string
	for k := range sim.Profiles {
		n = append(n, k)
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}

// overKey names the request key an error is about: prefix+"mem_mb" when
// memory is the culprit, else prefix+"vcores".
func overKey(prefix string, mem bool) string {
	if mem {
		return prefix + "mem_mb"
	}
	return prefix + "vcores"
}

// Spec is what the file declares for the policy factories: its queues.
func (sc *Scenario) Spec() policy.Spec {
	var spec policy.Spec
	for _, q := range sc.File.Policy.Queues {
		spec.Queues = append(spec.Queues, policy.Queue{Name: q.Name, Weight: q.Weight, Capacity: q.Capacity, MaxCapacity: q.MaxCapacity,
			MinMemMB: q.MinResourcesMemMB, MinVCores: q.MinResourcesVCores, MaxMemMB: q.MaxResourcesMemMB, MaxVCores: q.MaxResourcesVCores,
			MaxRunningApps: q.MaxRunningApps})
	}
	return spec
}

// policy builds the named policy with the file's queues, applying the file's
// parameters (when it is the file's own policy) and the --set overrides.
func (sc *Scenario) policy(name string) (*sim.Policy, error) {
	f := &sc.File
	spec := sc.Spec()
	if !policy.Registry.Has(name) {
		return nil, &Error{Source: sc.Origin(), Key: "policy", Reason: policy.Registry.Unknown(name).Error()}
	}
	p, err := policy.New(name, spec)
	if err != nil {
		return nil, &Error{Source: sc.Origin(), Key: "policy", Reason: fmt.Sprintf("policy %q cannot run scenario %q: %v", name, f.Name, err)}
	}
	names := make([]string, 0, len(f.Policy.Params))
	for k := range f.Policy.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if p.Params.Get(k) == nil && name != f.Policy.Name {
			continue // the file's parameters belong to its own policy
		}
		if err := p.Params.Set(k, f.Policy.Params[k]); err != nil {
			return nil, &Error{Source: sc.Origin(), Key: "policy.params." + k, Reason: err.Error() + paramHint(p, k)}
		}
	}
	names = names[:0]
	for k := range sc.ParamSets {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := p.Params.Set(k, sc.ParamSets[k]); err != nil {
			return nil, &Error{Source: "--set", Key: k, Reason: err.Error() + paramHint(p, k)}
		}
	}
	return p, nil
}

// paramHint lists the policy's parameters after an error setting name, with
// the nearest one when name is not one of them.
func paramHint(p *sim.Policy, name string) string {
	var n []string
	for _, q := range p.Params.List() {
		n = append(n, q.Name)
	}
	near := ""
	if p.Params.Get(name) == nil {
		near = registry.DidYouMean(name, n)
	}
	return fmt.Sprintf("%s (policy %s has: %s)", near, p.Name, strings.Join(n, ", "))
}

// diskThrash maps model.disk_thrash_exponent to sim.Model's convention,
// where zero takes the default: absent stays 0 (the default), an explicit 0
// becomes sim.NoDiskThrash (ideal sharing).
func diskThrash(a *float64) float64 {
	switch {
	case a == nil:
		return 0
	case *a == 0:
		return sim.NoDiskThrash
	}
	return *a
}

// Build makes a run configuration for seed with a fresh policy instance;
// policyName overrides the file's policy when not empty.
func (sc *Scenario) Build(seed uint64, policyName string) (sim.Config, error) {
	f := &sc.File
	if policyName == "" {
		policyName = f.Policy.Name
	}
	pol, err := sc.policy(policyName)
	if err != nil {
		return sim.Config{}, err
	}
	cfg := sim.Config{Policy: pol, Seed: seed,
		Model: sim.Model{HeartbeatMs: f.Model.HeartbeatMs, UsageSampleMs: f.Model.UsageSampleMs, AMStartupMs: f.Model.AMStartupMs,
			RackReadFactor: f.Model.RackReadFactor, OffRackReadFactor: f.Model.OffRackReadFactor, SwapExponent: f.Model.SwapExponent,
			DiskThrashExponent: diskThrash(f.Model.DiskThrashExponent), Replicas: f.Model.Replicas, GatedCPU: f.Model.GatedCPU,
			ShuffleEventPollMs: sim.Ms(f.Model.ShuffleEventPollMs), Uncontended: f.Model.Contention != nil && !*f.Model.Contention,
			ImmediateRelease: f.Model.ReleaseAtHeartbeat != nil && !*f.Model.ReleaseAtHeartbeat, AMHeartbeatMs: sim.Ms(f.Model.AMHeartbeatMs)},
		MaxMs: sim.Ms(f.Run.MaxS * 1000), StallMs: sim.Ms(f.Run.StallS * 1000),
		LivelockMs: sim.Ms(f.Run.LivelockS * 1000), TimelineMs: sim.Ms(f.Run.TimelineS * 1000)}
	perRack := f.Cluster.NodesPerRack
	if perRack == 0 {
		perRack = 20
	}
	for _, g := range f.Cluster.Nodes {
		for i := 0; i < g.Count; i++ {
			id := len(cfg.Nodes)
			name := g.Name
			if name == "" {
				name = "node"
			}
			cfg.Nodes = append(cfg.Nodes, sim.NodeSpec{Name: fmt.Sprintf("%s-%d", name, id), Rack: id / perRack,
				Cap: sim.Res{VCores: g.VCores, MemMB: g.MemMB}, Cores: g.Cores, DiskMBps: g.DiskMBps, NetMBps: g.NetMBps, Speed: g.Speed,
				ReduceSlots: g.ReduceSlots})
		}
	}
	rng := sim.NewRand(sim.DeriveSeed(seed, sim.HashString("workload")))
	for _, j := range f.Workload.Jobs {
		cfg.Jobs = append(cfg.Jobs, explicitJobs(j, rng)...)
	}
	if f.Workload.Generator != "" {
		src := sc.source
		if src == nil { // a Scenario not made by Parse
			if src, err = sc.compile(); err != nil {
				return sim.Config{}, err
			}
		}
		jobs, err := src(rng)
		if err != nil {
			return sim.Config{}, &Error{Source: sc.Origin(), Key: "workload.options", Reason: err.Error()}
		}
		cfg.Jobs = append(cfg.Jobs, jobs...)
	}
	return cfg, nil
}

// explicitJobs expands a [[workload.jobs]] entry.
func explicitJobs(j Job, rng *sim.Rand) []sim.JobSpec {
	count := 1
	if j.Count != nil {
		count = *j.Count
	}
	var out []sim.JobSpec
	for c := 0; c < count; c++ {
		name := j.Name
		if count > 1 {
			name = fmt.Sprintf("%s-%d", j.Name, c+1)
		}
		at := j.SubmitS + float64(c)*j.IntervalS
		if j.SubmitJitterS > 0 {
			at += j.SubmitJitterS * rng.Float64()
		}
		spec := sim.JobSpec{Name: name, App: j.App, Framework: j.Framework, Queue: j.Queue,
			SubmitMs: sim.Ms(math.Round(at * 1000)),
			AM:       sim.Res{VCores: j.AMVCores, MemMB: j.AMMemMB}, GoalMs: sim.Ms(j.GoalS * 1000)}
		for _, st := range j.Stages {
			kind, _ := sim.ParseTaskKind(st.Kind)
			prof := sim.Profiles[st.Profile]
			if prof == nil {
				prof = defaultProfile(kind)
			}
			var d []sim.Ms
			if len(st.DurationsS) > 0 {
				for _, x := range st.DurationsS {
					d = append(d, sim.Ms(math.Round(x*1000)))
				}
			} else {
				for i := 0; i < st.Tasks; i++ {
					x := st.DurationS
					if st.DurationSigma > 0 {
						x *= math.Exp(st.DurationSigma * rng.NormFloat64())
					}
					d = append(d, sim.Ms(math.Round(x*1000)))
				}
			}
			spec.Stages = append(spec.Stages, sim.StageSpec{Name: st.Name, Kind: kind, Req: sim.Res{VCores: st.VCores, MemMB: st.MemMB},
				Profile: prof, SlowStart: st.SlowStart, DurationsMs: d, BlockReplicas: st.Replicas, MaxRunning: st.MaxRunning})
		}
		out = append(out, spec)
	}
	return out
}

func defaultProfile(k sim.TaskKind) *sim.Profile {
	switch k {
	case sim.KindReduce:
		return sim.ReduceProfile
	case sim.KindExecutor:
		return sim.ExecutorProfile
	default:
		return sim.MapProfile
	}
}

// compile resolves the generator's paths in a copy of the options and
// compiles the generator: a trace file is read here, once per Scenario,
// not on every Build.
func (sc *Scenario) compile() (workload.Source, error) {
	g, _ := workload.Lookup(sc.File.Workload.Generator)
	opts := g.Options()
	if sc.Options != nil {
		// Decode once more into fresh options rather than share sc.Options:
		// the resolved path belongs to the compiled source only.
		reflectCopy(opts, sc.Options)
	}
	resolvePath(opts, sc.Dir)
	src, err := g.Compile(opts)
	if err != nil {
		return nil, &Error{Source: sc.Origin(), Key: "workload.options", Reason: err.Error()}
	}
	if n, ok := opts.(interface{ Notes() []string }); ok {
		for _, note := range n.Notes() {
			msg := fmt.Sprintf("%s: %s", sc.Origin(), note)
			sc.Warnings = append(sc.Warnings, msg)
			if sc.warn != nil {
				sc.warn(msg)
			}
		}
	}
	return src, nil
}

// TracePath is the file a trace loader's path option names, resolved as the
// loader opens it (${traces} expanded, relative to the scenario's folder);
// "" for generators without one.
func (sc *Scenario) TracePath() string {
	g, ok := workload.Lookup(sc.File.Workload.Generator)
	if !ok || sc.Options == nil {
		return ""
	}
	opts := g.Options()
	reflectCopy(opts, sc.Options)
	resolvePath(opts, sc.Dir)
	if p, ok := opts.(interface{ PathPtr() *string }); ok {
		return *p.PathPtr()
	}
	return ""
}

// reflectCopy copies *src into *dst (pointers to the same struct type).
func reflectCopy(dst, src any) {
	reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(src).Elem())
}

// resolvePath makes a generator's Path option what the loader opens: a
// path starting "${traces}/" names a trace shipped with yarngym (package
// data), or the same file under $YARNGYM_TRACES when that is set; any other
// relative path is relative to dir (the scenario file's folder).
func resolvePath(opts any, dir string) {
	p, ok := opts.(interface{ PathPtr() *string })
	if !ok {
		return
	}
	path := p.PathPtr()
	if data.Shipped(*path) {
		if d := os.Getenv("YARNGYM_TRACES"); d != "" {
			if st, err := os.Stat(d); err != nil || !st.IsDir() {
				d += " (YARNGYM_TRACES: no such folder; unset it to read the traces shipped with yarngym)"
			}
			*path = filepath.Join(d, strings.TrimPrefix(*path, data.TracesPrefix))
		}
	} else if *path != "" && !filepath.IsAbs(*path) {
		*path = filepath.Join(dir, *path)
	}
}
