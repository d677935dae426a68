//go:build capifuzz

package main

/*
#include <stdlib.h>
#include "yarngym.h"
*/
import "C"

import (
	"math"
	"unsafe"
)

// The C ABI called as a C client calls it, for the fuzz target
// (abi_fuzz_test.go; test files cannot use cgo): every buffer is C memory
// the caller owns, sized as yarngym.h asks for the call's arguments, or
// NULL where a flag says so. Built only with -tags capifuzz: none of this is
// in the library.

// cbuf is n zeroed bytes of C memory (at least 1, so that it is never NULL).
func cbuf(n int) unsafe.Pointer { return C.calloc(C.size_t(max(n, 1)), 1) }

func cfree(p unsafe.Pointer) {
	if p != nil {
		C.free(p)
	}
}

// ptr returns p, or NULL when null is set.
func ptr[T any](p unsafe.Pointer, null bool) *T {
	if null {
		return nil
	}
	return (*T)(p)
}

func abiBatchNew(config string, n, workers, flags int32, nullHandle bool) (int32, int64) {
	cs := C.CString(config)
	defer C.free(unsafe.Pointer(cs))
	h := (*C.int64_t)(cbuf(8))
	defer cfree(unsafe.Pointer(h))
	out := h
	if nullHandle {
		out = nil
	}
	st := yg_batch_new(cs, C.int32_t(n), C.int32_t(workers), C.int32_t(flags), out)
	return int32(st), int64(*h)
}

func abiBatchFree(h int64) int32 { return int32(yg_batch_free(C.int64_t(h))) }

// abiDims returns the batch's sizes (zeros for a bad handle).
func abiDims(h int64, null bool) (st, n, obs, act, info int32) {
	p := cbuf(5 * 4)
	defer cfree(p)
	v := unsafe.Slice((*C.int32_t)(p), 5)
	st = int32(yg_batch_dims(C.int64_t(h), ptr[C.int32_t](unsafe.Pointer(&v[0]), null), ptr[C.int32_t](unsafe.Pointer(&v[1]), null),
		ptr[C.int32_t](unsafe.Pointer(&v[2]), null), ptr[C.int32_t](unsafe.Pointer(&v[3]), null), ptr[C.int32_t](unsafe.Pointer(&v[4]), null)))
	return st, int32(v[0]), int32(v[1]), int32(v[2]), int32(v[3])
}

// size is the buffers' dimensions for a handle (from abiDims).
type size struct{ n, obs, act, info int }

func abiSpaces(h int64, sz size, null bool) int32 {
	ol, oh, al, ah := cbuf(4*sz.obs), cbuf(4*sz.obs), cbuf(4*sz.act), cbuf(4*sz.act)
	defer func() { cfree(ol); cfree(oh); cfree(al); cfree(ah) }()
	return int32(yg_batch_spaces(C.int64_t(h), ptr[C.float](ol, null), ptr[C.float](oh, null), ptr[C.float](al, null), ptr[C.float](ah, null)))
}

func abiBatchString(h int64, what, capacity int32, nullBuf bool) int32 {
	buf := cbuf(int(max(capacity, 0)))
	defer cfree(buf)
	l := (*C.int32_t)(cbuf(4))
	defer cfree(unsafe.Pointer(l))
	return int32(yg_batch_string(C.int64_t(h), C.int32_t(what), ptr[C.char](buf, nullBuf), C.int32_t(capacity), l))
}

func abiReset(h int64, sz size, seeds []uint64, mask []byte, nullMask, nullInfo, nullObs bool) int32 {
	s, m, o, inf := cbuf(8*sz.n), cbuf(sz.n), cbuf(4*sz.n*sz.obs), cbuf(8*sz.n*sz.info)
	defer func() { cfree(s); cfree(m); cfree(o); cfree(inf) }()
	sv, mv := unsafe.Slice((*uint64)(s), max(sz.n, 1)), unsafe.Slice((*byte)(m), max(sz.n, 1))
	for i := range sz.n {
		if len(seeds) > 0 {
			sv[i] = seeds[i%len(seeds)]
		}
		if len(mask) > 0 {
			mv[i] = mask[i%len(mask)]
		}
	}
	return int32(yg_batch_reset(C.int64_t(h), (*C.uint64_t)(s), ptr[C.uint8_t](m, nullMask), ptr[C.float](o, nullObs), ptr[C.double](inf, nullInfo)))
}

func abiStep(h int64, sz size, actions []float64, nullFinal, nullInfo, nullActions bool) int32 {
	a, o, r := cbuf(8*sz.n*sz.act), cbuf(4*sz.n*sz.obs), cbuf(8*sz.n)
	te, tr, fo, inf := cbuf(sz.n), cbuf(sz.n), cbuf(4*sz.n*sz.obs), cbuf(8*sz.n*sz.info)
	defer func() {
		cfree(a)
		cfree(o)
		cfree(r)
		cfree(te)
		cfree(tr)
		cfree(fo)
		cfree(inf)
	}()
	av := unsafe.Slice((*float64)(a), max(sz.n*sz.act, 1))
	for i := range sz.n * sz.act {
		if len(actions) > 0 {
			av[i] = actions[i%len(actions)]
		}
	}
	return int32(yg_batch_step(C.int64_t(h), ptr[C.double](a, nullActions), (*C.float)(o), (*C.double)(r), (*C.uint8_t)(te), (*C.uint8_t)(tr),
		ptr[C.float](fo, nullFinal), ptr[C.double](inf, nullInfo)))
}

func abiSeeds(h int64, sz size) int32 {
	p := cbuf(8 * sz.n)
	defer cfree(p)
	return int32(yg_batch_seeds(C.int64_t(h), (*C.uint64_t)(p)))
}

func abiRegistry(what, capacity int32, nullBuf bool) int32 {
	buf := cbuf(int(max(capacity, 0)))
	defer cfree(buf)
	return int32(yg_registry(C.int32_t(what), ptr[C.char](buf, nullBuf), C.int32_t(capacity), nil))
}

func abiSetThreads(n int32) int32 { return int32(yg_set_threads(C.int32_t(n), nil)) }

func abiLastError(capacity int32) int32 {
	buf := cbuf(int(max(capacity, 0)))
	defer cfree(buf)
	l := (*C.int32_t)(cbuf(4))
	defer cfree(unsafe.Pointer(l))
	return int32(C.yg_last_error((*C.char)(buf), C.int32_t(capacity), l))
}

func abiRunNew(config string) (int32, int64) {
	cs := C.CString(config)
	defer C.free(unsafe.Pointer(cs))
	h := (*C.int64_t)(cbuf(8))
	defer cfree(unsafe.Pointer(h))
	st := yg_run_new(cs, h)
	return int32(st), int64(*h)
}

func abiRunFree(h int64) int32 { return int32(yg_run_free(C.int64_t(h))) }

// abiRunRows asks for a run's counts, then its jobs, tasks, timeline and
// state with n off by delta from each count (0: exact), into buffers of n
// rows (a wrong n must be refused, not overrun).
func abiRunRows(h int64, delta int64, nullOut bool) []int32 {
	c := cbuf(4 * 8)
	defer cfree(c)
	cv := unsafe.Slice((*C.int64_t)(c), 4)
	out := []int32{int32(yg_run_counts(C.int64_t(h), &cv[0], &cv[1], &cv[2], &cv[3]))}
	n := func(k int) int64 { return max(int64(cv[k])+delta, 0) }
	rows := func(count int64, each uintptr) unsafe.Pointer { return cbuf(int(count) * int(each)) }
	jb := rows(n(0), unsafe.Sizeof(C.yg_job{}))
	tk := rows(n(1), unsafe.Sizeof(C.yg_task{}))
	tl := rows(n(2), unsafe.Sizeof(C.yg_sample{}))
	sv := rows(n(2)*int64(cv[3])+delta, 8)
	defer func() { cfree(jb); cfree(tk); cfree(tl); cfree(sv) }()
	out = append(out,
		int32(yg_run_jobs(C.int64_t(h), ptr[C.yg_job](jb, nullOut), C.int64_t(n(0)))),
		int32(yg_run_tasks(C.int64_t(h), ptr[C.yg_task](tk, nullOut), C.int64_t(n(1)))),
		int32(yg_run_timeline(C.int64_t(h), ptr[C.yg_sample](tl, nullOut), C.int64_t(n(2)))),
		int32(yg_run_state(C.int64_t(h), ptr[C.double](sv, nullOut), C.int64_t(max(n(2)*int64(cv[3])+delta, 0)))))
	return out
}

func abiEvaluate(config string, n int32) int32 {
	cs := C.CString(config)
	defer C.free(unsafe.Pointer(cs))
	r := cbuf(8 * int(max(n, 0)))
	defer cfree(r)
	return int32(yg_evaluate(cs, (*C.double)(r), C.int32_t(n)))
}

// specials are values a fuzz input picks actions and seeds among.
var specials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 0.5, 1, 2, 1e308, -1e308, math.SmallestNonzeroFloat64}

// lastErrorString is the calling thread's last error message.
func lastErrorString() (string, int32) {
	const capacity = 4096
	buf := cbuf(capacity)
	defer cfree(buf)
	l := (*C.int32_t)(cbuf(4))
	defer cfree(unsafe.Pointer(l))
	st := C.yg_last_error((*C.char)(buf), capacity, l)
	return C.GoString((*C.char)(buf)), int32(st)
}
