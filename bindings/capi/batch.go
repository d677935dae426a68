// Command capi is yarngym's C ABI: built with
//
//	go build -buildmode=c-shared -o libyarngym.so ./bindings/capi
//
// it is a shared library exporting the functions of the hand-written header
// yarngym.h (batches of gym-style environments over plain C types), for
// Python (the yarngym package, through cffi) and any other caller.
//
// This file is the pure-Go part (handles, config parsing, the calls on a
// batch), testable without cgo; exports.go adapts it to C.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"yarngym/env"
)

func main() {}

// Status codes, as in yarngym.h.
const (
	statusOK      = 0
	statusInvalid = 1
	statusHandle  = 2
	statusEnv     = 3
	statusPanic   = 4
)

// abiVersion is YG_ABI_VERSION.
const abiVersion = 2

// flagNoAutoreset is YG_FLAG_NO_AUTORESET.
const flagNoAutoreset = 1

// String kinds of yg_batch_string.
const (
	strFeatures = 0
	strActions  = 1
	strInfo     = 2
	strConfig   = 3
)

// maxEnvs bounds one batch's size (a sanity check on the caller's n).
const maxEnvs = 1 << 20

// maxThreads is the largest count yg_set_threads takes: 4 x the CPUs this
// process may run on (runtime.NumCPU: its affinity mask), at least 256.
// GOMAXPROCS bounds the threads running Go code at once; the engine is
// CPU-bound, so more than the CPUs only adds scheduler state (per-P caches,
// a GC worker each) and context switches, and a huge count exhausts memory
// (2^31-1 kills the process; 100,000 takes minutes). 4x leaves room to
// oversubscribe (a CPU quota smaller than the mask, experiments), and the
// floor of 256 lets a small machine match a larger cluster's setting.
func maxThreads() int { return max(256, 4*runtime.NumCPU()) }

// checkThreads checks yg_set_threads' n (n <= 0 only reads the count).
func checkThreads(n int) error {
	if m := maxThreads(); n > m {
		return invalidf("set_threads: n = %d, want 1 to %d (4 x the %d CPUs this process may use, at least 256; 0 or less reads the count)",
			n, m, runtime.NumCPU())
	}
	return nil
}

// statusError is an error with the status code the export returns.
type statusError struct {
	code int32
	msg  string
}

func (e *statusError) Error() string { return e.msg }

func invalidf(format string, a ...any) error {
	return &statusError{statusInvalid, fmt.Sprintf(format, a...)}
}

// statusOf maps an error to its status code: a statusError's code,
// statusPanic for an env's panic (*env.PanicError), else statusEnv (the
// environment refused the call).
func statusOf(err error) int32 {
	var se *statusError
	if errors.As(err, &se) {
		return se.code
	}
	var pe *env.PanicError
	if errors.As(err, &pe) {
		return statusPanic
	}
	return statusEnv
}

// infoNames are the info scalars, in the order of an env's info row (see
// env.Info): counts, this step's objective terms, the return so far, and,
// on the step that ends an episode (ended = 1), its objectives.
var infoNames = []string{
	"step", "sim_time_s", "horizon_s", "jobs_completed", "jobs_stuck", "tasks_killed", "events",
	"slowdown", "completion", "utilization", "kills", "wasted", "throughput",
	"return", "ended",
	"episode_slowdown", "episode_completion_s", "episode_utilization", "episode_kills", "episode_wasted_s", "episode_throughput",
}

// writeInfo writes in as one info row (len(infoNames) values).
func writeInfo(row []float64, in *env.Info) {
	_ = row[len(infoNames)-1]
	ended := 0.0
	if in.Ended {
		ended = 1
	}
	copy(row, []float64{
		float64(in.Step), in.SimTimeS, in.HorizonS, float64(in.JobsCompleted), float64(in.JobsStuck), float64(in.TasksKilled), float64(in.Events),
		in.Slowdown, in.Completion, in.Utilization, in.Kills, in.Wasted, in.Throughput,
		in.Return, ended,
		in.EpisodeSlowdown, in.EpisodeCompletionS, in.EpisodeUtilization, in.EpisodeKills, in.EpisodeWastedS, in.EpisodeThroughput,
	})
}

// batch is what a handle refers to.
type batch struct {
	mu                sync.Mutex // serialises calls on the handle
	b                 *env.Batch
	n, obsDim, actDim int
	auto              bool   // same-step autoreset (env.Batch.Step), else env.Batch.StepSome
	mask              []bool // the reset mask, converted from bytes
	freed             bool
	id                int64  // the handle
	poison            string // the panic that made the handle unusable ("": none; see panics.go)
}

// handles maps handle ids to batches. Ids count up from 1 and are never
// reused.
var handles = struct {
	sync.Mutex
	m    map[int64]*batch
	last int64
}{m: map[int64]*batch{}}

// parseConfig decodes a JSON env.Config, rejecting unknown fields and
// trailing data.
func parseConfig(js string) (env.Config, error) {
	var cfg env.Config
	if strings.TrimSpace(js) == "" {
		return cfg, invalidf(`config json: empty; want an object such as {"scenario": "quick"}`)
	}
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, invalidf("config json: %v (fields: scenario, sets, policy, controlled, bounds, control_interval_s, horizon_s, max_steps, reward)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return cfg, invalidf("config json: unexpected data after the object")
	}
	return cfg, nil
}

// newBatch builds a batch from a JSON config and registers it.
func newBatch(configJSON string, n, workers, flags int) (int64, error) {
	if n < 1 || n > maxEnvs {
		return 0, invalidf("batch: n = %d, want 1 to %d environments", n, maxEnvs)
	}
	if workers < 0 {
		return 0, invalidf("batch: workers = %d, want 0 (the thread count) or more", workers)
	}
	if flags&^flagNoAutoreset != 0 {
		return 0, invalidf("batch: unknown flags %#x (known: YG_FLAG_NO_AUTORESET = 1)", flags)
	}
	cfg, err := parseConfig(configJSON)
	if err != nil {
		return 0, err
	}
	b, err := env.NewBatch(cfg, n, workers)
	if err != nil {
		return 0, &statusError{statusInvalid, err.Error()}
	}
	h := &batch{b: b, n: n, obsDim: b.ObsDim(), actDim: b.ActDim(), auto: flags&flagNoAutoreset == 0,
		mask: make([]bool, n)}
	handles.Lock()
	defer handles.Unlock()
	handles.last++
	h.id = handles.last
	handles.m[handles.last] = h
	return handles.last, nil
}

// lookup returns the batch of handle id.
func lookup(id int64) (*batch, error) {
	handles.Lock()
	h := handles.m[id]
	handles.Unlock()
	if h == nil {
		return nil, &statusError{statusHandle, fmt.Sprintf("handle %d: unknown or already freed", id)}
	}
	return h, nil
}

// freeBatch unregisters handle id and closes its batch, after any call in
// progress on it. An unknown id is ignored.
func freeBatch(id int64) {
	handles.Lock()
	h := handles.m[id]
	delete(handles.m, id)
	handles.Unlock()
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.freed = true
	h.b.Close()
	h.b = nil
}

// use locks h for a call; the returned function unlocks it. A poisoned
// handle (an earlier call panicked) refuses every call.
func (h *batch) use(id int64) (func(), error) {
	h.mu.Lock()
	if h.freed {
		h.mu.Unlock()
		return nil, &statusError{statusHandle, fmt.Sprintf("handle %d: freed", id)}
	}
	if h.poison != "" {
		h.mu.Unlock()
		return nil, poisonedErr(id, h.poison)
	}
	return h.mu.Unlock, nil
}

// failed returns the error of a reset or step: an env's panic poisons the
// handle (h.mu is held) and becomes YG_ERR_PANIC.
func (h *batch) failed(err error) error {
	detail, ok := envPanic(err)
	if !ok {
		return err
	}
	h.poison = detail
	return panicErr(detail, h.id)
}

// str returns a text property (see yg_batch_string).
func (h *batch) str(what int) (string, error) {
	switch what {
	case strFeatures:
		return strings.Join(h.b.FeatureNames(), "\n"), nil
	case strActions:
		return strings.Join(h.b.Env(0).Config().Controlled, "\n"), nil
	case strInfo:
		return strings.Join(infoNames, "\n"), nil
	case strConfig:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(h.b.Env(0).Config()); err != nil {
			return "", err
		}
		return strings.TrimSuffix(buf.String(), "\n"), nil
	}
	return "", invalidf("batch string: unknown kind %d (known: 0 features, 1 actions, 2 info, 3 config)", what)
}

// reset resets the envs where mask is non-zero (all when mask is nil).
func (h *batch) reset(seeds []uint64, mask []byte, obs []float32, info []float64) error {
	var m []bool
	if mask != nil {
		for i, v := range mask {
			h.mask[i] = v != 0
		}
		m = h.mask
	}
	if err := h.b.Reset(seeds, m, obs); err != nil {
		return h.failed(err)
	}
	if info != nil {
		k := len(infoNames)
		for i, in := range h.b.Infos() {
			if m == nil || m[i] {
				writeInfo(info[i*k:(i+1)*k], &in)
			}
		}
	}
	return nil
}

// step steps every env (see yg_batch_step). Every env's action is checked
// before any env steps: a bad one leaves them all as they were.
func (h *batch) step(actions []float64, obs []float32, rewards []float64, term, trunc []bool, finalObs []float32, info []float64) error {
	var err error
	if h.auto {
		err = h.b.Step(actions, obs, rewards, term, trunc, finalObs)
	} else {
		err = h.b.StepSome(nil, actions, obs, rewards, term, trunc)
	}
	if err != nil {
		return h.failed(err)
	}
	if info != nil {
		k := len(infoNames)
		for i, in := range h.b.Infos() {
			writeInfo(info[i*k:(i+1)*k], &in)
		}
	}
	return nil
}

// seeds writes each env's episode seed.
func (h *batch) seeds(out []uint64) {
	for i := range out {
		out[i] = h.b.Env(i).Seed()
	}
}
