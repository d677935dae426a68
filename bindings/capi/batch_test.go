package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"yarngym/env"
	"yarngym/env/sim"
	"yarngym/env/task"
)

// The header and the exports agree: every //export has a prototype in
// yarngym_api.h (the declarations yarngym.h includes) and every prototype is
// exported (or defined in errbuf.go). The C compiler checks the prototypes'
// types (exports.go includes the header).
func TestHeaderListsEveryExport(t *testing.T) {
	h, err := os.ReadFile("yarngym_api.h")
	if err != nil {
		t.Fatal(err)
	}
	var exports []string
	for _, f := range []string{"exports.go", "errbuf.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`(?m)^//export (\w+)$`).FindAllStringSubmatch(string(src), -1) {
			exports = append(exports, m[1])
		}
		for _, m := range regexp.MustCompile(`(?m)^int32_t (yg_\w+)\(.*\) \{$`).FindAllStringSubmatch(string(src), -1) {
			exports = append(exports, m[1])
		}
	}
	var protos []string
	for _, m := range regexp.MustCompile(`(?m)^int32_t (yg_\w+)\(`).FindAllStringSubmatch(string(h), -1) {
		protos = append(protos, m[1])
	}
	slices.Sort(exports)
	slices.Sort(protos)
	if !slices.Equal(exports, protos) {
		t.Fatalf("exports %v, header prototypes %v", exports, protos)
	}
	// The test hooks of a yarngym_debug build (debughook.go) are declared in
	// yarngym_debug_api.h (through yarngym_debug.h), not in the public header.
	dh, err := os.ReadFile("yarngym_debug_api.h")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("debughook.go")
	if err != nil {
		t.Fatal(err)
	}
	dexp := regexp.MustCompile(`(?m)^//export (\w+)$`).FindAllStringSubmatch(string(src), -1)
	dproto := regexp.MustCompile(`(?m)^int32_t (yg_\w+)\(`).FindAllStringSubmatch(string(dh), -1)
	if len(dexp) != 1 || len(dproto) != 1 || dexp[0][1] != dproto[0][1] || !strings.HasPrefix(string(src), "//go:build yarngym_debug\n") {
		t.Fatalf("debughook.go exports %v, yarngym_debug_api.h declares %v (and the file must build only with the yarngym_debug tag)", dexp, dproto)
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"YG_ABI_VERSION", abiVersion}, {"YG_OK", statusOK}, {"YG_ERR_INVALID", statusInvalid}, {"YG_ERR_HANDLE", statusHandle},
		{"YG_ERR_ENV", statusEnv}, {"YG_ERR_PANIC", statusPanic}, {"YG_FLAG_NO_AUTORESET", flagNoAutoreset},
		{"YG_STR_FEATURES", strFeatures}, {"YG_STR_ACTIONS", strActions}, {"YG_STR_INFO", strInfo}, {"YG_STR_CONFIG", strConfig},
		{"YG_REG_TASKS", regTasks}, {"YG_REG_BASELINES", regBaselines}, {"YG_REG_POLICIES", regPolicies},
		{"YG_REG_SCENARIOS", regScenarios}, {"YG_REG_OBJECTIVES", regObjectives}, {"YG_REG_CONFIG", regConfig},
		{"YG_RUN_SUMMARY", runSummary}, {"YG_RUN_JOB_STRINGS", runJobStrings}, {"YG_RUN_ENUMS", runEnums}, {"YG_RUN_STATE_NAMES", runStateNames}} {
		re := regexp.MustCompile(`(?m)^#define ` + c.name + ` (\d+)`)
		m := re.FindStringSubmatch(string(h))
		if m == nil || m[1] != strconv.Itoa(c.v) {
			t.Errorf("yarngym_api.h: %s = %v, Go %d", c.name, m, c.v)
		}
	}
}

// The declaration files hold no directive but #define: Python's cffi reads
// them as they are (its cdef takes comments and integer #defines, not
// includes or conditionals).
func TestAPIHeadersNeedNoPreprocessor(t *testing.T) {
	for _, f := range []string{"yarngym_api.h", "yarngym_debug_api.h"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if s := strings.TrimSpace(line); strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "#define ") {
				t.Errorf("%s:%d: %q: only #define may appear", f, i+1, s)
			}
		}
	}
}

func TestNewBatchErrors(t *testing.T) {
	for _, c := range []struct {
		name, js      string
		n, w, flags   int
		code          int32
		wantInMessage string
	}{
		{"empty config", "", 1, 0, 0, statusInvalid, "config json: empty"},
		{"not json", "{scenario", 1, 0, 0, statusInvalid, "config json"},
		{"unknown field", `{"scenario":"quick","bogus":1}`, 1, 0, 0, statusInvalid, `unknown field "bogus"`},
		{"trailing data", `{"scenario":"quick"} {}`, 1, 0, 0, statusInvalid, "after the object"},
		{"n zero", `{"scenario":"quick"}`, 0, 0, 0, statusInvalid, "n = 0"},
		{"negative workers", `{"scenario":"quick"}`, 1, -1, 0, statusInvalid, "workers = -1"},
		{"unknown flag", `{"scenario":"quick"}`, 1, 0, 4, statusInvalid, "unknown flags"},
		{"unknown scenario", `{"scenario":"no-such-scenario"}`, 1, 0, 0, statusInvalid, "no-such-scenario"},
		{"unknown parameter", `{"scenario":"quick","controlled":["rho"]}`, 1, 0, 0, statusInvalid, `no parameter "rho"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, err := newBatch(c.js, c.n, c.w, c.flags)
			if err == nil {
				freeBatch(id)
				t.Fatal("no error")
			}
			if statusOf(err) != c.code || !strings.Contains(err.Error(), c.wantInMessage) {
				t.Fatalf("status %d, error %q; want %d and %q", statusOf(err), err, c.code, c.wantInMessage)
			}
		})
	}
}

// Handles count up, are never reused, and a second free is harmless.
func TestHandlesNeverReused(t *testing.T) {
	a, err := newBatch(`{"scenario":"quick"}`, 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	freeBatch(a)
	freeBatch(a)
	freeBatch(-5)
	b, err := newBatch(`{"scenario":"quick"}`, 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer freeBatch(b)
	if b <= a {
		t.Fatalf("handle %d after freed %d: reused or not increasing", b, a)
	}
	if _, err := lookup(a); err == nil || statusOf(err) != statusHandle {
		t.Fatalf("lookup of a freed handle: %v", err)
	}
}

// The handle's calls match env.Batch (autoreset) and env.Env (no autoreset)
// on the same seeds, and the info rows carry the envs' Info.
func TestBatchMatchesEnv(t *testing.T) {
	const js = `{"scenario":"quick","controlled":["max_am_share"],"max_steps":4}`
	for _, auto := range []bool{true, false} {
		flags := 0
		if !auto {
			flags = flagNoAutoreset
		}
		id, err := newBatch(js, 2, 0, flags)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := lookup(id)
		ref, err := env.New(env.Config{Scenario: "quick", Controlled: []string{"max_am_share"}, MaxSteps: 4})
		if err != nil {
			t.Fatal(err)
		}
		od, k := h.obsDim, len(infoNames)
		obs, info := make([]float32, 2*od), make([]float64, 2*k)
		if err := h.reset([]uint64{7, 8}, []byte{1, 1}, obs, info); err != nil {
			t.Fatal(err)
		}
		want, _, _ := ref.Reset(8)
		if !slices.Equal(obs[od:], want) {
			t.Fatalf("auto=%v: reset observation differs from env.Env's", auto)
		}
		rew, term, trunc, fin := make([]float64, 2), make([]bool, 2), make([]bool, 2), make([]float32, 2*od)
		for step := 1; step <= 4; step++ {
			act := []float64{0.3, 0.3}
			if err := h.step(act, obs, rew, term, trunc, fin, info); err != nil {
				t.Fatal(err)
			}
			wo, wr, wte, wtr, win, err := ref.Step([]float64{0.3})
			if err != nil {
				t.Fatal(err)
			}
			got := obs[od:]
			if wte || wtr {
				if auto {
					got = fin[od:]
				}
			}
			if !slices.Equal(got, wo) || rew[1] != wr || term[1] != wte || trunc[1] != wtr {
				t.Fatalf("auto=%v step %d: differs from env.Env", auto, step)
			}
			row := make([]float64, k)
			writeInfo(row, &win)
			if !slices.Equal(info[k:], row) || info[k+0] != float64(win.Step) || info[k+6] != float64(win.Events) || info[k+7] != win.Slowdown {
				t.Fatalf("auto=%v step %d: info row %v, want %+v", auto, step, info[k:], win)
			}
		}
		if !trunc[1] {
			t.Fatalf("auto=%v: max_steps 4 did not truncate", auto)
		}
		err = h.step([]float64{0, 0}, obs, rew, term, trunc, fin, info)
		if auto && err != nil {
			t.Fatalf("step after autoreset: %v", err)
		}
		if !auto && (err == nil || statusOf(err) != statusEnv) {
			t.Fatalf("step after the end without autoreset: %v, want an env error", err)
		}
		freeBatch(id)
	}
}

func TestStrings(t *testing.T) {
	id, err := newBatch(`{"scenario":"quick","controlled":["max_am_share"]}`, 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer freeBatch(id)
	h, _ := lookup(id)
	feat, _ := h.str(strFeatures)
	if n := len(strings.Split(feat, "\n")); n != h.obsDim || !strings.HasPrefix(feat, "time_frac\n") {
		t.Fatalf("features: %d names for obs_dim %d: %q", n, h.obsDim, feat)
	}
	if s, _ := h.str(strActions); s != "max_am_share" {
		t.Fatalf("actions %q", s)
	}
	if s, _ := h.str(strConfig); !strings.Contains(s, `"control_interval_s":60`) || !strings.Contains(s, `"scenario":"quick"`) {
		t.Fatalf("config %q", s)
	}
	if _, err := h.str(9); err == nil {
		t.Fatal("unknown kind: no error")
	}
}

// TestNoAutoresetChecksFirst: without autoreset, a bad action for one env
// (a NaN) or an ended env refuses the whole step before any env moves.
func TestNoAutoresetChecksFirst(t *testing.T) {
	id, err := newBatch(`{"scenario":"quick","controlled":["max_am_share"],"max_steps":2}`, 4, 2, flagNoAutoreset)
	if err != nil {
		t.Fatal(err)
	}
	defer freeBatch(id)
	h, _ := lookup(id)
	od, k := h.obsDim, len(infoNames)
	obs, info := make([]float32, 4*od), make([]float64, 4*k)
	rew, term, trunc := make([]float64, 4), make([]bool, 4), make([]bool, 4)
	if err := h.reset([]uint64{1, 2, 3, 4}, nil, obs, info); err != nil {
		t.Fatal(err)
	}
	steps := func() []int {
		out := make([]int, 4)
		for i := range out {
			out[i] = h.b.Infos()[i].Step
		}
		return out
	}
	if err := h.step([]float64{0.5, 0.5, 0.5, 0.5}, obs, rew, term, trunc, nil, info); err != nil {
		t.Fatal(err)
	}
	err = h.step([]float64{0.5, 0.5, math.NaN(), 0.5}, obs, rew, term, trunc, nil, info)
	if err == nil || !strings.Contains(err.Error(), "env 2") || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("NaN action: %v", err)
	}
	if got := steps(); !slices.Equal(got, []int{1, 1, 1, 1}) {
		t.Fatalf("after the refused step the envs are at steps %v, want [1 1 1 1]", got)
	}
	if err := h.step([]float64{0.5, 0.5, 0.5, 0.5}, obs, rew, term, trunc, nil, info); err != nil {
		t.Fatal(err)
	}
	if !trunc[0] || !trunc[3] {
		t.Fatalf("max_steps 2 did not truncate: %v", trunc)
	}
	if err := h.step([]float64{0.5, 0.5, 0.5, 0.5}, obs, rew, term, trunc, nil, info); err == nil || !strings.Contains(err.Error(), "Reset") {
		t.Fatalf("stepping ended envs: %v", err)
	}
}

// TestRegistry: every registry renders as JSON with its entries.
func TestRegistry(t *testing.T) {
	for _, c := range []struct {
		what int
		want []string
	}{
		{regTasks, []string{`"gym_id":"yarngym/AutoAdmin66-Fair-v0"`, `"train_seeds"`, `"action_low"`}},
		{regBaselines, []string{"{"}},
		{regPolicies, []string{`"name":"opera"`, `"name":"rho"`, `"default":0.95`}},
		{regScenarios, []string{`"name":"quick"`}},
		{regObjectives, []string{`{"name":"kills","stall_safe":false}`}},
	} {
		s, err := registryJSON(c.what)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid([]byte(s)) {
			t.Fatalf("registry %d: invalid JSON", c.what)
		}
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("registry %d does not contain %s", c.what, w)
			}
		}
	}
	if _, err := registryJSON(99); err == nil || statusOf(err) != statusInvalid {
		t.Errorf("unknown registry: %v", err)
	}
}

// TestRun: a run handle holds the same run as the runner, its tasks in
// tasks.csv's order; bad configs name the field.
func TestRun(t *testing.T) {
	id, err := newRun(`{"scenario":"quick","seed":3}`)
	if err != nil {
		t.Fatal(err)
	}
	defer freeRun(id)
	r, err := lookupRun(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.jobs) != 4 || len(r.tasks) == 0 || r.res.Seed != 3 {
		t.Fatalf("%d jobs, %d tasks, seed %d", len(r.jobs), len(r.tasks), r.res.Seed)
	}
	csv := r.res.TasksCSV()
	if len(csv)-1 != len(r.tasks) {
		t.Fatalf("%d task rows, tasks.csv has %d", len(r.tasks), len(csv)-1)
	}
	for i, tk := range r.tasks {
		if row := csv[i+1]; row[0] != strconv.Itoa(int(tk.Job)) || row[3] != strconv.Itoa(tk.Index) || row[4] != strconv.Itoa(int(tk.Attempt)) {
			t.Fatalf("task %d: %+v, tasks.csv row %v", i, tk, row)
		}
	}
	for what, want := range map[int]string{runSummary: `"seed": 3`, runJobStrings: `"name":[`, runEnums: `"outcome":["done","killed"]`} {
		s, err := r.str(what)
		if err != nil || !strings.Contains(s, want) {
			t.Errorf("string %d: %q (%v), want %s in it", what, s, err, want)
		}
	}
	freeRun(id)
	if _, err := lookupRun(id); err == nil || statusOf(err) != statusHandle {
		t.Errorf("a freed run: %v", err)
	}
	for _, c := range []struct{ js, want string }{
		{`{"seed":1}`, "scenario"}, {`{"scenario":"quick","bogus":1}`, "bogus"},
		{`{"scenario":"no-such"}`, "no-such"}, {`{"scenario":"quick","timeline_s":-1}`, "timeline_s"},
	} {
		if _, err := newRun(c.js); err == nil || !strings.Contains(err.Error(), c.want) || statusOf(err) != statusInvalid {
			t.Errorf("%s: %v", c.js, err)
		}
	}
}

// TestEvaluate: yg_evaluate's returns are task.Evaluate's, and bad configs
// name what is wrong.
func TestEvaluate(t *testing.T) {
	rets, err := evaluate(`{"task":"AutoAdmin-v0","action":[1.5],"seeds":[1000,7]}`)
	if err != nil {
		t.Fatal(err)
	}
	tk, _ := task.Lookup("AutoAdmin-v0")
	eps, err := task.Evaluate(tk.Env, []uint64{1000, 7}, task.Static{1.5}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rets, task.Returns(eps)) {
		t.Errorf("returns %v, task.Evaluate %v", rets, task.Returns(eps))
	}
	if rets, err := evaluate(`{"task":"AutoAdmin-v0","saved":"ppo","seeds":[1,2]}`); err != nil || len(rets) != 2 {
		t.Errorf("a saved model: %v, %v", rets, err)
	}
	for _, c := range []struct{ js, want string }{
		{`{"task":"Nope-v0","action":[1],"seeds":[1]}`, "Nope-v0"},
		{`{"task":"AutoAdmin-v0","action":[1, 2],"seeds":[1]}`, "rrp_scale"},
		{`{"task":"AutoAdmin-v0","action":[1],"seeds":[]}`, "seeds"},
		{`{"task":"AutoAdmin-v0","action":[1],"model":"x","seeds":[1]}`, "not several"},
		{`{"task":"AutoAdmin-v0","saved":"nope","seeds":[1]}`, "AutoAdmin-v0/nope"},
		{`{"task":"AutoAdmin-v0","model":"/nonexistent/m.json","seeds":[1]}`, "nonexistent"},
		{`{"task":"AutoAdmin-v0","oops":1}`, "oops"},
	} {
		if _, err := evaluate(c.js); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.js, err)
		}
	}
}

// use is what every export on a batch handle does first (open, without
// cgo): look it up and lock it.
func use(id int64) error {
	h, err := lookup(id)
	if err != nil {
		return err
	}
	unlock, err := h.use(id)
	if err == nil {
		unlock()
	}
	return err
}

// panicAt makes every env of handle id panic, from its next reset, at the
// first engine event at or after atMs.
func panicAt(t *testing.T, id int64, atMs sim.Ms) {
	t.Helper()
	h, err := lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	for i := range h.n {
		h.b.Env(i).SetSimOptions(func(c *sim.Config) {
			c.AfterEvent = func(s *sim.Sim) {
				if s.Now() >= atMs {
					panic(fmt.Sprintf("deliberate at %d ms", s.Now()))
				}
			}
		})
	}
}

// An engine panic is YG_ERR_PANIC (not an env error) naming the panic and
// where it was raised, and poisons the handle: every later call but free
// returns YG_ERR_PANIC naming the original panic.
func TestEnginePanicPoisonsTheHandle(t *testing.T) {
	for _, auto := range []bool{true, false} {
		flags := 0
		if !auto {
			flags = flagNoAutoreset
		}
		id, err := newBatch(`{"scenario":"quick","controlled":["max_am_share"]}`, 2, 2, flags)
		if err != nil {
			t.Fatal(err)
		}
		panicAt(t, id, 90_000)
		h, _ := lookup(id)
		od, k := h.obsDim, len(infoNames)
		obs, info := make([]float32, 2*od), make([]float64, 2*k)
		rew, term, trunc, fin := make([]float64, 2), make([]bool, 2), make([]bool, 2), make([]float32, 2*od)
		if err := h.reset([]uint64{1, 2}, nil, obs, info); err != nil {
			t.Fatal(err)
		}
		if err := h.step([]float64{0.5, 0.5}, obs, rew, term, trunc, fin, info); err != nil {
			t.Fatalf("the first 60 s step: %v", err)
		}
		err = h.step([]float64{0.5, 0.5}, obs, rew, term, trunc, fin, info)
		if err == nil || statusOf(err) != statusPanic {
			t.Fatalf("auto=%v: the panicking step returned %v, want YG_ERR_PANIC", auto, err)
		}
		first := err.Error()
		for _, want := range []string{panicPrefix, "env 0: deliberate at", "[at ", "batch_test.go:", fmt.Sprintf("handle %d can no longer be used", id)} {
			if !strings.Contains(first, want) {
				t.Errorf("auto=%v: %q does not say %q", auto, first, want)
			}
		}
		original := strings.TrimSuffix(strings.TrimPrefix(first, panicPrefix), fmt.Sprintf("; handle %d can no longer be used: free it (close the environment) and create a new one", id))
		// Every export on the handle but free goes through use, refused now.
		for range 2 {
			err := use(id)
			if err == nil || statusOf(err) != statusPanic || !strings.Contains(err.Error(), original) ||
				!strings.Contains(err.Error(), fmt.Sprintf("handle %d is unusable", id)) {
				t.Errorf("auto=%v: a call after the panic: %v; want YG_ERR_PANIC naming %q", auto, err, original)
			}
		}
		freeBatch(id)
		freeBatch(id)
		if _, err := lookup(id); statusOf(err) != statusHandle {
			t.Errorf("freed poisoned handle: %v", err)
		}
	}
}

// A panic in an export itself (guardHandle) poisons the handle too; a run
// handle is poisoned the same way.
func TestPoisonHandle(t *testing.T) {
	id, err := newBatch(`{"scenario":"quick"}`, 1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer freeBatch(id)
	err = poisonHandle(id, "boom [at x.go:1]")
	if statusOf(err) != statusPanic || err.Error() != panicPrefix+"boom [at x.go:1]; handle "+strconv.FormatInt(id, 10)+
		" can no longer be used: free it (close the environment) and create a new one" {
		t.Fatalf("poisonHandle: %v", err)
	}
	if err := use(id); statusOf(err) != statusPanic || !strings.Contains(err.Error(), "boom [at x.go:1]") {
		t.Fatalf("a poisoned batch: %v", err)
	}
	_ = poisonHandle(id, "second")
	if err := use(id); strings.Contains(err.Error(), "second") {
		t.Fatalf("a second panic replaced the first: %v", err)
	}
	rid, err := newRun(`{"scenario":"quick","seed":1}`)
	if err != nil {
		t.Fatal(err)
	}
	defer freeRun(rid)
	_ = poisonHandle(rid, "run boom")
	if _, err := lookupRun(rid); statusOf(err) != statusPanic || !strings.Contains(err.Error(), "run boom") {
		t.Fatalf("a poisoned run: %v", err)
	}
	if err := poisonHandle(0, "no handle"); err.Error() != panicPrefix+"no handle" {
		t.Fatalf("handle 0: %v", err)
	}
}

// The evaluation of a task reports an env's panic as YG_ERR_PANIC too.
func TestEnvPanicStatus(t *testing.T) {
	err := fmt.Errorf("env 3: %w", &env.PanicError{Value: "x"})
	if statusOf(err) != statusPanic {
		t.Fatalf("status %d", statusOf(err))
	}
	if d, ok := envPanic(err); !ok || d != "env 3: x" {
		t.Fatalf("envPanic: %q %v", d, ok)
	}
	if _, ok := envPanic(errors.New("panic: not a PanicError")); ok {
		t.Fatal("a plain error taken for a panic")
	}
}

func TestPanicLocation(t *testing.T) {
	var stack []byte
	func() {
		defer func() { recover(); stack = debug.Stack() }()
		var m map[string]int
		m["x"]++ // a runtime panic: assignment to entry in nil map
	}()
	loc := panicLocation(stack)
	if !strings.Contains(loc, "batch_test.go:") {
		t.Fatalf("location %q in\n%s", loc, stack)
	}
	if panicLocation([]byte("goroutine 1 [running]:\nmain.f()\n\tf.go:1 +0x1\n")) != "" {
		t.Fatal("a stack without panic() has a location")
	}
}

func TestSetThreadsBounds(t *testing.T) {
	m := maxThreads()
	if m < 256 || m < 4*runtime.NumCPU() {
		t.Fatalf("maxThreads %d", m)
	}
	for _, n := range []int{-1, 0, 1, m} {
		if err := checkThreads(n); err != nil {
			t.Errorf("n = %d refused: %v", n, err)
		}
	}
	for _, n := range []int{m + 1, 1<<31 - 1} {
		if err := checkThreads(n); err == nil || statusOf(err) != statusInvalid || !strings.Contains(err.Error(), fmt.Sprintf("want 1 to %d", m)) {
			t.Errorf("n = %d: %v", n, err)
		}
	}
}

func TestRunTimelineResolution(t *testing.T) {
	for _, ts := range []string{"0.0005", "1e-9"} {
		if _, err := newRun(`{"scenario":"quick","timeline_s":` + ts + `}`); err == nil || statusOf(err) != statusInvalid ||
			!strings.Contains(err.Error(), "resolution of 1 ms") {
			t.Errorf("timeline_s %s: %v", ts, err)
		}
	}
	id, err := newRun(`{"scenario":"quick","seed":1,"timeline_s":0.001}`)
	if err != nil {
		t.Fatal(err)
	}
	defer freeRun(id)
	r, _ := lookupRun(id)
	if tl := r.res.Sim.Timeline(); len(tl) < 2 || tl[1].AtMs-tl[0].AtMs != 1 {
		t.Fatalf("timeline_s 0.001: %d samples", len(tl))
	}
}
