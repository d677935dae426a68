package opera

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// launchAll is an allocator that, at its first heartbeat, launches the
// pending tasks of the first job in order (stage by stage), each with the
// container kind given for it.
type launchAll struct {
	kinds []sim.ContainerKind
	done  bool
}

func (a *launchAll) Allocate(h sim.Handle, n *sim.Node) {
	if a.done || len(h.Active()) == 0 {
		return
	}
	a.done = true
	var tasks []*sim.Task
	for _, st := range h.Active()[0].Stages {
		tasks = append(tasks, st.Tasks...)
	}
	for i, k := range a.kinds {
		if err := h.Launch(tasks[i], n, k); err != nil {
			panic(err)
		}
	}
}

// node runs one node of capacity <vcores, memMB> with one long task per
// entry of kinds (in that order), each using cpu cores and mem MB exactly,
// and returns the run stopped just after the launches.
func node(t *testing.T, vcores, memMB int64, req sim.Res, cpu, mem float64, kinds ...sim.ContainerKind) (*sim.Sim, *sim.Node) {
	t.Helper()
	d := make([]sim.Ms, len(kinds))
	for i := range d {
		d[i] = 1000 * sim.MsPerS
	}
	prof := &sim.Profile{Name: "flat", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: cpu, Mem: mem}}}
	s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: vcores, MemMB: memMB}}},
		Jobs:   []sim.JobSpec{{Name: "j", Stages: []sim.StageSpec{{Name: "s", Kind: sim.KindGeneric, Req: req, Profile: prof, DurationsMs: d}}}},
		Policy: &sim.Policy{Name: "scripted", Allocate: &launchAll{kinds: kinds}}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(1)
	if len(s.Nodes[0].Containers) != len(kinds) {
		t.Fatalf("%d containers launched, want %d", len(s.Nodes[0].Containers), len(kinds))
	}
	return s, s.Nodes[0]
}

// consumed is the CPU n's containers consume now when none of them waits
// (on its disk, a remote read or swap): their demand, up to the node's
// cores. What the monitor measures (NU(CPU)) over an interval in which it
// held.
func consumed(n *sim.Node) float64 { return min(n.Demand.CPU, n.Spec.Cores) }

const (
	g = sim.Guaranteed
	o = sim.Opportunistic
)

// TestReliefPolicies: AGGRESSIVE ignores CPU contention and kills on memory
// contention; NEUTRAL and PRESERVE kill on either; memory is checked first.
//
// Reference: OPERA Sec. III-C, Alg. 1 (CRes lines 12-17, RelieveContention
// lines 18-33).
func TestReliefPolicies(t *testing.T) {
	cases := []struct {
		name     string
		relief   float64
		cpu, mem float64 // per task, two tasks on a <8 vCores, 1000 MB> node
		cont     int
		killed   bool
	}{
		{"aggressive, CPU", Aggressive, 4, 100, contCPU, false},
		{"neutral, CPU", Neutral, 4, 100, contCPU, true},
		{"preserve, CPU", Preserve, 4, 100, contCPU, true},
		{"aggressive, memory", Aggressive, 1, 480, contMemory, true},
		{"neutral, memory", Neutral, 1, 480, contMemory, true},
		{"aggressive, memory and CPU", Aggressive, 4, 480, contMemory, true},
		{"neutral, below rho", Neutral, 3.7, 470, contNone, false}, // 7.4 < 7.6 cores, 940 < 950 MB
	}
	for _, tc := range cases {
		s, n := node(t, 8, 1000, sim.Res{VCores: 4, MemMB: 100}, tc.cpu, tc.mem, g, o)
		m := NewMonitor()
		m.Relief = tc.relief
		if c := m.CRes(n, consumed(n)); c != tc.cont {
			t.Errorf("%s: CRes = %d, want %d", tc.name, c, tc.cont)
		}
		opp := n.Containers[1]
		m.Relieve(s.Handle(), n, m.CRes(n, consumed(n)))
		if killed := opp.State == sim.TaskPending; killed != tc.killed || m.Kills != map[bool]int64{true: 1}[tc.killed] {
			t.Errorf("%s: opportunistic task killed %v (kills %d), want %v", tc.name, killed, m.Kills, tc.killed)
		}
		if n.Containers[0].State != sim.TaskRunning {
			t.Errorf("%s: the guaranteed task was touched", tc.name)
		}
	}
}

// TestKillsNewestOpportunistic: the monitor kills the most recently launched
// opportunistic task, never a guaranteed one, one per round.
//
// Reference: OPERA Sec. III-C ("kill the most recently launched opportunistic
// task").
func TestKillsNewestOpportunistic(t *testing.T) {
	s, n := node(t, 12, 10000, sim.Res{VCores: 1, MemMB: 100}, 4, 100, o, g, o, o, g)
	tasks := append([]*sim.Task(nil), n.Containers...)
	m := NewMonitor()
	m.Relief = Neutral
	if NewestOpportunistic(n) != tasks[3] {
		t.Fatalf("newest opportunistic = %v, want %v", NewestOpportunistic(n), tasks[3])
	}
	order := []int{3, 2, 0} // opportunistic tasks, newest first
	for round := range order {
		m.Relieve(s.Handle(), n, m.CRes(n, consumed(n))) // 20, 16, 12 cores on 12: above 0.95 x 12
		for i, tk := range tasks {
			want := false
			for _, k := range order[:round+1] {
				want = want || k == i
			}
			if pending := tk.State == sim.TaskPending; pending != want {
				t.Fatalf("round %d: task %d pending = %v, want %v", round, i, pending, want)
			}
		}
	}
	m.Relieve(s.Handle(), n, contCPU) // only guaranteed tasks are left
	if m.Kills != 3 || tasks[1].State != sim.TaskRunning || tasks[4].State != sim.TaskRunning {
		t.Fatalf("kills %d; guaranteed tasks %v %v", m.Kills, tasks[1].State, tasks[4].State)
	}
}

// TestPreserveWindow: under PRESERVE, BR and BT grow by alpha on a
// contention within the current block window (on every contention with
// grow_always, Alg. 1 lines 24-27 as printed) and shrink by alpha after a
// quiet window of BT, never below their initial values nor BR above the
// node's capacity; a contention from rest opens a window without growing.
//
// Reference: OPERA Sec. III-C, Alg. 1 lines 23-33 ("We double the values of
// BR_i ... and BT_i ... if a new resource contention is detected within the
// current block time window"; "decreased exponentially by a factor of
// alpha, if no resource contention has been detected in the past time
// window BT_i").
func TestPreserveWindow(t *testing.T) {
	for _, growAlways := range []float64{0, 1} {
		for _, alpha := range []float64{2, 3} {
			// One task that is never launched keeps the run (and its clock) going.
			prof := &sim.Profile{Name: "flat", Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 1, Mem: 1}}}
			s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: 15, MemMB: 12288}}},
				Jobs: []sim.JobSpec{{Name: "j", Stages: []sim.StageSpec{{Name: "s", Kind: sim.KindGeneric, Req: sim.Res{VCores: 1, MemMB: 1},
					Profile: prof, DurationsMs: []sim.Ms{1000}}}}},
				Policy: &sim.Policy{Name: "none", Allocate: &launchAll{done: true}}, StallMs: 1 << 40})
			if err != nil {
				t.Fatal(err)
			}
			n := s.Nodes[0]
			m := NewMonitor()
			m.Alpha, m.GrowAlways = alpha, growAlways
			at := func(sec float64, c int) {
				s.RunUntil(sim.Ms(sec * 1000))
				m.Relieve(s.Handle(), n, c)
			}
			check := func(when string, level int) {
				t.Helper()
				k := 1.0
				for i := 0; i < level; i++ {
					k *= alpha
				}
				bc, bm := m.Blocked(n)
				wc, wm := min(2*k, 15), min(1024*k, 12288)
				if bc != wc || bm != wm || m.BlockTimeMs(n) != sim.Ms(60000*k) {
					t.Fatalf("grow_always %v, alpha %v, %s: BR <%v, %v>, BT %d ms; want <%v, %v>, %v ms", growAlways, alpha, when, bc, bm, m.BlockTimeMs(n), wc, wm, 60000*k)
				}
			}
			// From rest the first contention grows BR only when every
			// contention does.
			first := 0
			if growAlways == 1 {
				first = 1
			}
			check("start", 0)
			at(10, contCPU)
			check("first contention", first)
			at(20, contMemory)
			check("second contention, within the window", first+1)
			bt := 60 * math.Pow(alpha, float64(first+1)) // the window after the second contention
			at(20+bt-1, contNone)
			check("inside the window", first+1)
			at(20+bt+1, contNone)
			check("after a quiet window", first)
			end := 20 + bt + 1
			if first == 1 {
				at(end+60*alpha-1, contNone)
				check("inside the shorter window", 1)
				end += 60 * alpha
				at(end+1, contNone)
				check("after another quiet window", 0)
				end++
			}
			// A shrink opens a window: a contention in it grows BR.
			at(end+30, contCPU)
			check("contention in the window a shrink opened", 1)
			at(end+30+60*alpha+1, contNone)
			check("quiet again", 0)
			at(10000, contNone)
			check("floor", 0)
			at(10001, contCPU)
			check("contention from rest", first)
			for i := 0; i < 10; i++ {
				at(10002+float64(i), contCPU)
			}
			bc, _ := m.Blocked(n)
			if bc != 15 {
				t.Fatalf("grow_always %v, alpha %v: BR after many contentions = %v vCores, want the capacity 15", growAlways, alpha, bc)
			}
		}
	}
}

// TestBlockedOnlyUnderPreserve: AGGRESSIVE and NEUTRAL block nothing.
//
// Reference: OPERA Sec. III-C ("Under the PRESERVE policy, the opportunistic
// scheduler estimates ... BR_i").
func TestBlockedOnlyUnderPreserve(t *testing.T) {
	_, n := node(t, 8, 1000, sim.Res{VCores: 1, MemMB: 100}, 1, 100, g)
	m := NewMonitor()
	for _, r := range []float64{Aggressive, Neutral} {
		m.Relief = r
		if c, mm := m.Blocked(n); c != 0 || mm != 0 {
			t.Fatalf("relief %v blocks <%v, %v>", r, c, mm)
		}
	}
}

// TestOA: OA_i = C_i - sum of actual usage - BR_i (Eq. 4; Eq. 7 without
// PRESERVE).
//
// Reference: OPERA Sec. III-C Eq. 4, Sec. III-D Eq. 7.
func TestOA(t *testing.T) {
	// Two tasks using 1.5 cores and 150 MB each, one guaranteed, one
	// opportunistic: NU = <3 cores, 300 MB> on a <8, 1000 MB> node.
	_, n := node(t, 8, 1000, sim.Res{VCores: 2, MemMB: 200}, 1.5, 150, g, o)
	cases := []struct {
		relief           float64
		blockC, blockM   float64
		wantCPU, wantMem float64
	}{
		{Neutral, 2, 100, 5, 700},
		{Aggressive, 2, 100, 5, 700},
		{Preserve, 2, 100, 3, 600},
		{Preserve, 0, 0, 5, 700},
	}
	for _, tc := range cases {
		m := NewMonitor()
		m.Relief, m.BlockVCores, m.BlockMemMB = tc.relief, tc.blockC, tc.blockM
		if c, mm := m.OA(n); c != tc.wantCPU || mm != tc.wantMem {
			t.Errorf("relief %v, BR <%v, %v>: OA <%v, %v>, want <%v, %v>", tc.relief, tc.blockC, tc.blockM, c, mm, tc.wantCPU, tc.wantMem)
		}
	}
	// OpportunisticAssign takes a request strictly below OA (Alg. 2 line 16).
	op := &Opera{}
	op.beat = beat{oaCPU: 4, oaMem: 2048, active: true}
	for _, tc := range []struct {
		req  sim.Res
		want bool
	}{{sim.Res{VCores: 3, MemMB: 1024}, true}, {sim.Res{VCores: 4, MemMB: 1024}, false}, {sim.Res{VCores: 1, MemMB: 2048}, false}} {
		if got := op.fitsOA(&sim.Task{Req: tc.req}); got != tc.want {
			t.Errorf("request %v against OA <4, 2048>: fits %v, want %v", tc.req, got, tc.want)
		}
	}
}

// TestMonitorInterval: a node is examined at most once per monitor interval
// and only while it runs opportunistic tasks.
//
// Reference: OPERA Alg. 1 lines 2-11 (op flag, SLEEP MonitorInterval).
func TestMonitorInterval(t *testing.T) {
	s, n := node(t, 8, 1000, sim.Res{VCores: 1, MemMB: 100}, 3, 100, g, g, g, o, o)
	m := NewMonitor()
	m.Relief = Neutral
	m.Monitor(s.Handle(), n) // 15 cores on 8: contention, kills one
	m.Monitor(s.Handle(), n) // same instant: inside the interval
	if m.Kills != 1 {
		t.Fatalf("kills %d after two calls in one interval, want 1", m.Kills)
	}
	s.RunUntil(1 + 3000)
	m.Monitor(s.Handle(), n)
	if m.Kills != 2 {
		t.Fatalf("kills %d after the interval, want 2", m.Kills)
	}
	// Both killed tasks started at 0: they lost 1 ms and 3001 ms of work.
	if m.WastedMs != 3002 {
		t.Fatalf("wasted %d ms, want 3002", m.WastedMs)
	}
	s.RunUntil(1 + 6000)
	m.Monitor(s.Handle(), n) // 9 cores on 8, but no opportunistic task is left
	if m.Kills != 2 || m.CRes(n, consumed(n)) != contCPU {
		t.Fatalf("kills %d with only guaranteed tasks (CRes %d)", m.Kills, m.CRes(n, consumed(n)))
	}
}

// TestNUIsConsumedCPU: the monitor's NU(CPU) is the CPU the node's
// containers consumed over the last interval, as a NodeManager's
// ContainersMonitor measures it from the processes' CPU time: a task held
// back by its disk uses only the CPU it gets to use, so two tasks asking 4
// cores each on 8 are not CPU contention when one of them asks twice what
// its disk gives and so waits on it most of the time (its disk share is
// (100/200)^(1+a), a the disk-thrash exponent: NU 5.5 of 8 cores, below 0.95
// x 8), and are when neither waits (NU 8). Before, the monitor read the tasks' demand (8) and killed
// the opportunistic one in both cases.
//
// Reference: OPERA Alg. 1 lines 3-5 and 12-17; Hadoop's
// ContainersMonitorImpl.MonitoringThread (CPU usage from
// ProcfsBasedProcessTree's cumulative CPU time over the interval).
func TestNUIsConsumedCPU(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ioMBps float64 // the opportunistic task's disk demand, on a 100 MB/s disk
		nu     float64 // NU(CPU) at the monitor's rounds
		killed bool
	}{
		{"CPU-bound", 0, 8, true},
		{"waits on its disk", 200, 4 + 4*math.Pow(0.5, 1+sim.DefaultDiskThrashExponent), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			long := []sim.Ms{1000 * sim.MsPerS}
			phase := func(io float64) *sim.Profile {
				return &sim.Profile{Name: "flat", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 4, Mem: 100, IOMBps: io}}}
			}
			req := sim.Res{VCores: 4, MemMB: 100}
			m := NewMonitor()
			m.Relief = Neutral
			var nus []float64
			probe := monitorProbe{m: m, nus: &nus}
			s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: 8, MemMB: 1000}, DiskMBps: 100}},
				Jobs: []sim.JobSpec{{Name: "j", Stages: []sim.StageSpec{
					{Name: "g", Kind: sim.KindGeneric, Req: req, Profile: phase(0), DurationsMs: long},
					{Name: "o", Kind: sim.KindGeneric, Req: req, Profile: phase(tc.ioMBps), DurationsMs: long},
				}}},
				Policy: &sim.Policy{Name: "scripted", Allocate: &launchAll{kinds: []sim.ContainerKind{g, o}}, Monitors: []sim.NodeMonitor{probe}}})
			if err != nil {
				t.Fatal(err)
			}
			s.RunUntil(10 * sim.MsPerS)
			if len(nus) < 3 {
				t.Fatalf("%d monitor rounds in 10 s, want at least 3", len(nus))
			}
			// The first round measures the instant of the launches (no CPU
			// consumed yet); the next ones a whole interval of both tasks.
			for i, nu := range nus[1:2] {
				if math.Abs(nu-tc.nu) > 1e-9 {
					t.Errorf("round %d: NU(CPU) = %v, want %v", i+1, nu, tc.nu)
				}
			}
			if killed := m.Kills > 0; killed != tc.killed {
				t.Errorf("opportunistic task killed %v (kills %d), want %v", killed, m.Kills, tc.killed)
			}
		})
	}
}

// monitorProbe runs the monitor and records NU(CPU) at each of its rounds.
type monitorProbe struct {
	m   *Monitor
	nus *[]float64
}

func (p monitorProbe) Monitor(h sim.Handle, n *sim.Node) {
	st := p.m.state(n)
	if h.Now() >= st.nextMs {
		w0, at0 := st.cpuWork, st.cpuWorkMs
		p.m.Monitor(h, n)
		if h.Now() > at0 {
			*p.nus = append(*p.nus, (st.cpuWork-w0)/(float64(h.Now()-at0)/1000))
		} else {
			*p.nus = append(*p.nus, 0)
		}
	}
}
