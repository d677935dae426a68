package main

/*
#include <stdlib.h>
#include "yarngym.h"

// Defined in errbuf.go's preamble.
void yg_internal_set_error(char *msg, int32_t n);
*/
import "C"

import (
	"runtime"
	"runtime/debug"
	"unsafe"

	"yarngym/env/sim"
)

// This file adapts batch.go to the C ABI of yarngym.h: every export checks
// its pointers, turns errors into a status code and the calling thread's
// last error, and recovers panics. C buffers are viewed as Go slices only
// for the duration of a call (they are C memory, so this is allowed, and
// env.Batch drops them before returning).

// setError records msg as the calling thread's last error.
func setError(msg string) {
	cs := C.CString(msg)
	C.yg_internal_set_error(cs, C.int32_t(len(msg)))
	C.free(unsafe.Pointer(cs))
}

// fail records err and returns its status.
func fail(err error) C.int32_t {
	setError(err.Error())
	return C.int32_t(statusOf(err))
}

// failf records an invalid-argument error.
func failf(format string, a ...any) C.int32_t { return fail(invalidf(format, a...)) }

// guard turns a panic into statusPanic; every export defers it (or
// guardHandle). recover works only in the deferred function itself, hence
// two of them.
func guard(st *C.int32_t) {
	if r := recover(); r != nil {
		*st = onPanic(0, r)
	}
}

// guardHandle is guard for an export called on a handle: a panic poisons
// the handle (see panics.go).
func guardHandle(handle C.int64_t, st *C.int32_t) {
	if r := recover(); r != nil {
		*st = onPanic(int64(handle), r)
	}
}

// onPanic records a recovered panic (called from guard's deferred call, so
// the stack still shows where it was raised) and returns statusPanic.
func onPanic(handle int64, r any) C.int32_t {
	return fail(poisonHandle(handle, describePanic(r, debug.Stack())))
}

// slice views n elements of C memory at p as a Go slice (nil for NULL).
func slice[T any](p unsafe.Pointer, n int) []T {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*T)(p), n)
}

//export yg_abi_version
func yg_abi_version(version *C.int32_t) (st C.int32_t) {
	defer guard(&st)
	if version == nil {
		return failf("yg_abi_version: version is NULL")
	}
	*version = abiVersion
	return statusOK
}

//export yg_set_threads
func yg_set_threads(n C.int32_t, previous *C.int32_t) (st C.int32_t) {
	defer guard(&st)
	if err := checkThreads(int(n)); err != nil {
		return fail(err)
	}
	var prev int
	if n > 0 {
		prev = runtime.GOMAXPROCS(int(n))
	} else {
		prev = runtime.GOMAXPROCS(0)
	}
	if previous != nil {
		*previous = C.int32_t(prev)
	}
	return statusOK
}

//export yg_batch_new
func yg_batch_new(configJSON *C.char, n, workers, flags C.int32_t, handle *C.int64_t) (st C.int32_t) {
	defer guard(&st)
	if configJSON == nil || handle == nil {
		return failf("yg_batch_new: config_json and handle must not be NULL")
	}
	id, err := newBatch(C.GoString(configJSON), int(n), int(workers), int(flags))
	if err != nil {
		return fail(err)
	}
	*handle = C.int64_t(id)
	return statusOK
}

//export yg_batch_free
func yg_batch_free(handle C.int64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	freeBatch(int64(handle))
	return statusOK
}

// open looks up and locks handle id for one call.
func open(id C.int64_t) (*batch, func(), error) {
	h, err := lookup(int64(id))
	if err != nil {
		return nil, nil, err
	}
	unlock, err := h.use(int64(id))
	if err != nil {
		return nil, nil, err
	}
	return h, unlock, nil
}

//export yg_batch_dims
func yg_batch_dims(handle C.int64_t, n, obsDim, actDim, infoDim, workers *C.int32_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	h, unlock, err := open(handle)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	for _, o := range []struct {
		p *C.int32_t
		v int
	}{{n, h.n}, {obsDim, h.obsDim}, {actDim, h.actDim}, {infoDim, len(infoNames)}, {workers, h.b.Workers()}} {
		if o.p != nil {
			*o.p = C.int32_t(o.v)
		}
	}
	return statusOK
}

//export yg_batch_spaces
func yg_batch_spaces(handle C.int64_t, obsLow, obsHigh, actLow, actHigh *C.float) (st C.int32_t) {
	defer guardHandle(handle, &st)
	h, unlock, err := open(handle)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	os, as := h.b.ObservationSpace(), h.b.ActionSpace()
	copy(slice[float32](unsafe.Pointer(obsLow), h.obsDim), os.Low)
	copy(slice[float32](unsafe.Pointer(obsHigh), h.obsDim), os.High)
	copy(slice[float32](unsafe.Pointer(actLow), h.actDim), as.Low)
	copy(slice[float32](unsafe.Pointer(actHigh), h.actDim), as.High)
	return statusOK
}

// copyString writes s into the caller's buffer as yg_batch_string does.
func copyString(s string, buf *C.char, capacity C.int32_t, length *C.int32_t) C.int32_t {
	if len(s) > 1<<31-2 {
		return failf("string of %d bytes does not fit the ABI's int32 length", len(s))
	}
	if length != nil {
		*length = C.int32_t(len(s))
	}
	if buf != nil && capacity > 0 {
		out := slice[byte](unsafe.Pointer(buf), int(capacity))
		k := copy(out[:len(out)-1], s)
		out[k] = 0
	}
	return statusOK
}

//export yg_registry
func yg_registry(what C.int32_t, buf *C.char, capacity C.int32_t, length *C.int32_t) (st C.int32_t) {
	defer guard(&st)
	s, err := registryJSON(int(what))
	if err != nil {
		return fail(err)
	}
	return copyString(s, buf, capacity, length)
}

//export yg_batch_string
func yg_batch_string(handle C.int64_t, what C.int32_t, buf *C.char, capacity C.int32_t, length *C.int32_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	h, unlock, err := open(handle)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	s, err := h.str(int(what))
	if err != nil {
		return fail(err)
	}
	return copyString(s, buf, capacity, length)
}

//export yg_batch_reset
func yg_batch_reset(handle C.int64_t, seeds *C.uint64_t, mask *C.uint8_t, obs *C.float, info *C.double) (st C.int32_t) {
	defer guardHandle(handle, &st)
	h, unlock, err := open(handle)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	if seeds == nil || obs == nil {
		return failf("yg_batch_reset: seeds and obs must not be NULL")
	}
	n := h.n
	err = h.reset(slice[uint64](unsafe.Pointer(seeds), n), slice[byte](unsafe.Pointer(mask), n),
		slice[float32](unsafe.Pointer(obs), n*h.obsDim), slice[float64](unsafe.Pointer(info), n*len(infoNames)))
	if err != nil {
		return fail(err)
	}
	return statusOK
}

//export yg_batch_step
func yg_batch_step(handle C.int64_t, actions *C.double, obs *C.float, rewards *C.double, terminated, truncated *C.uint8_t,
	finalObs *C.float, info *C.double) (st C.int32_t) {
	defer guardHandle(handle, &st)
	h, unlock, err := open(handle)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	if obs == nil || rewards == nil || terminated == nil || truncated == nil || (actions == nil && h.actDim > 0) {
		return failf("yg_batch_step: obs, rewards, terminated, truncated and (with act_dim %d) actions must not be NULL", h.actDim)
	}
	n := h.n
	act := slice[float64](unsafe.Pointer(actions), n*h.actDim)
	if act == nil {
		act = []float64{}
	}
	err = h.step(act, slice[float32](unsafe.Pointer(obs), n*h.obsDim), slice[float64](unsafe.Pointer(rewards), n),
		slice[bool](unsafe.Pointer(terminated), n), slice[bool](unsafe.Pointer(truncated), n),
		slice[float32](unsafe.Pointer(finalObs), n*h.obsDim), slice[float64](unsafe.Pointer(info), n*len(infoNames)))
	if err != nil {
		return fail(err)
	}
	return statusOK
}

//export yg_batch_seeds
func yg_batch_seeds(handle C.int64_t, seeds *C.uint64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	h, unlock, err := open(handle)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	if seeds == nil {
		return failf("yg_batch_seeds: seeds must not be NULL")
	}
	h.seeds(slice[uint64](unsafe.Pointer(seeds), h.n))
	return statusOK
}

//export yg_run_new
func yg_run_new(configJSON *C.char, handle *C.int64_t) (st C.int32_t) {
	defer guard(&st)
	if configJSON == nil || handle == nil {
		return failf("yg_run_new: config_json and handle must not be NULL")
	}
	id, err := newRun(C.GoString(configJSON))
	if err != nil {
		return fail(err)
	}
	*handle = C.int64_t(id)
	return statusOK
}

//export yg_run_free
func yg_run_free(handle C.int64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	freeRun(int64(handle))
	return statusOK
}

//export yg_run_counts
func yg_run_counts(handle C.int64_t, jobs, tasks, samples, stateVars *C.int64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	r, err := lookupRun(int64(handle))
	if err != nil {
		return fail(err)
	}
	for _, o := range []struct {
		p *C.int64_t
		v int
	}{{jobs, len(r.jobs)}, {tasks, len(r.tasks)}, {samples, len(r.res.Sim.Timeline())}, {stateVars, len(r.res.Sim.Policy().State)}} {
		if o.p != nil {
			*o.p = C.int64_t(o.v)
		}
	}
	return statusOK
}

//export yg_run_timeline
func yg_run_timeline(handle C.int64_t, out *C.yg_sample, n C.int64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	r, err := lookupRun(int64(handle))
	if err != nil {
		return fail(err)
	}
	tl := r.res.Sim.Timeline()
	if int(n) != len(tl) || (out == nil && n > 0) {
		return failf("yg_run_timeline: out must hold the run's %d samples, got n = %d", len(tl), n)
	}
	if n == 0 {
		return statusOK
	}
	rows := unsafe.Slice(out, int(n))
	for i, p := range tl {
		rows[i] = C.yg_sample{t_s: C.double(float64(p.AtMs) / 1000), vcores_guaranteed: C.double(p.VCoresGuaranteed),
			vcores_opportunistic: C.double(p.VCoresOpp), cpu_used: C.double(p.CPUUsed), mem_mb_reserved: C.double(p.MemMBReserved),
			mem_mb_used: C.double(p.MemMBUsed), containers_guaranteed: C.int32_t(p.ContainersG), containers_opportunistic: C.int32_t(p.ContainersO),
			pending_tasks: C.int32_t(p.PendingTasks), waiting_jobs: C.int32_t(p.WaitingJobs), running_jobs: C.int32_t(p.RunningJobs)}
	}
	return statusOK
}

//export yg_run_state
func yg_run_state(handle C.int64_t, out *C.double, n C.int64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	r, err := lookupRun(int64(handle))
	if err != nil {
		return fail(err)
	}
	tl, k := r.res.Sim.Timeline(), len(r.res.Sim.Policy().State)
	if int(n) != len(tl)*k || (out == nil && n > 0) {
		return failf("yg_run_state: out must hold %d samples x %d state variables, got n = %d", len(tl), k, n)
	}
	if n == 0 {
		return statusOK
	}
	vals := slice[float64](unsafe.Pointer(out), int(n))
	for i, p := range tl {
		copy(vals[i*k:(i+1)*k], p.Policy)
	}
	return statusOK
}

//export yg_run_string
func yg_run_string(handle C.int64_t, what C.int32_t, buf *C.char, capacity C.int32_t, length *C.int32_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	r, err := lookupRun(int64(handle))
	if err != nil {
		return fail(err)
	}
	s, err := r.str(int(what))
	if err != nil {
		return fail(err)
	}
	return copyString(s, buf, capacity, length)
}

//export yg_run_jobs
func yg_run_jobs(handle C.int64_t, out *C.yg_job, n C.int64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	r, err := lookupRun(int64(handle))
	if err != nil {
		return fail(err)
	}
	if out == nil || int(n) != len(r.jobs) {
		return failf("yg_run_jobs: out must hold the run's %d jobs, got n = %d", len(r.jobs), n)
	}
	rows := unsafe.Slice(out, int(n))
	for i, j := range r.jobs {
		done := j.State != sim.JobWaiting && j.State != sim.JobFuture
		rows[i] = C.yg_job{id: C.int64_t(j.ID), state: C.int32_t(j.State), tasks: C.int32_t(j.Tasks),
			submit_s: C.double(secsOr(j.SubmitMs, true)), admit_s: C.double(secsOr(j.AdmitMs, done)),
			start_s: C.double(secsOr(j.StartMs, j.StartMs >= 0)), finish_s: C.double(secsOr(j.FinishMs, j.FinishMs >= 0)),
			goal_s: C.double(secsOr(j.GoalMs, j.GoalMs > 0))}
	}
	return statusOK
}

//export yg_run_tasks
func yg_run_tasks(handle C.int64_t, out *C.yg_task, n C.int64_t) (st C.int32_t) {
	defer guardHandle(handle, &st)
	r, err := lookupRun(int64(handle))
	if err != nil {
		return fail(err)
	}
	if int(n) != len(r.tasks) || (out == nil && n > 0) {
		return failf("yg_run_tasks: out must hold the run's %d task attempts, got n = %d", len(r.tasks), n)
	}
	if n == 0 {
		return statusOK
	}
	rows := unsafe.Slice(out, int(n))
	for i, t := range r.tasks {
		rows[i] = C.yg_task{job: C.int32_t(t.Job), stage: C.int32_t(t.Stage), index: C.int32_t(t.Index), attempt: C.int32_t(t.Attempt),
			node: C.int32_t(t.Node), kind: C.int8_t(t.Kind), container: C.int8_t(t.Container), locality: C.int8_t(t.Locality),
			outcome: C.int8_t(t.Outcome), start_s: C.double(float64(t.StartMs) / 1000), end_s: C.double(float64(t.EndMs) / 1000)}
	}
	return statusOK
}

//export yg_evaluate
func yg_evaluate(configJSON *C.char, returns *C.double, n C.int32_t) (st C.int32_t) {
	defer guard(&st)
	if configJSON == nil || returns == nil {
		return failf("yg_evaluate: config_json and returns must not be NULL")
	}
	rets, err := evaluate(C.GoString(configJSON))
	if err != nil {
		return fail(err)
	}
	if int(n) != len(rets) {
		return failf("yg_evaluate: returns holds %d values, the config has %d seeds", n, len(rets))
	}
	copy(slice[float64](unsafe.Pointer(returns), int(n)), rets)
	return statusOK
}
