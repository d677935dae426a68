//go:build yarngym_debug

package main

/*
#include "yarngym_debug.h"
*/
import "C"

import (
	"fmt"
	"math"
	"syscall"

	"yarngym/env/sim"
)

// Test hooks (yarngym_debug.h), compiled only with -tags yarngym_debug: the
// Python tests build such a library to make the engine panic, or raise
// SIGINT, in the middle of a step or a run.

// Values of yg_debug_hook's what.
const (
	debugNone   = 0
	debugPanic  = 1
	debugSIGINT = 2
)

// debugEvent returns a sim.Config.AfterEvent doing what at the first event
// at or after atMs (a fresh one per episode or run).
func debugEvent(what int, atMs sim.Ms) func(*sim.Sim) {
	done := false
	return func(s *sim.Sim) {
		if done || s.Now() < atMs {
			return
		}
		done = true
		switch what {
		case debugPanic:
			panic(fmt.Sprintf("yg_debug_hook: deliberate panic at %d ms", s.Now()))
		case debugSIGINT:
			_ = syscall.Kill(syscall.Getpid(), syscall.SIGINT)
		}
	}
}

//export yg_debug_hook
func yg_debug_hook(handle C.int64_t, what C.int32_t, atS C.double) (st C.int32_t) {
	defer guard(&st)
	w := int(what)
	if w < debugNone || w > debugSIGINT || math.IsNaN(float64(atS)) || atS < 0 {
		return failf("yg_debug_hook: what = %d, at_s = %v; want 0 to 2 and at_s >= 0", w, float64(atS))
	}
	atMs := sim.Ms(math.Round(float64(atS) * 1000))
	if handle == 0 {
		if w == debugNone {
			runHook.Store(nil)
		} else {
			f := func() func(*sim.Sim) { return debugEvent(w, atMs) }
			runHook.Store(&f)
		}
		return statusOK
	}
	var hook func(*sim.Config)
	if w != debugNone {
		hook = func(c *sim.Config) { c.AfterEvent = debugEvent(w, atMs) }
	}
	h, unlock, err := open(handle)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	for i := range h.n {
		h.b.Env(i).SetSimOptions(hook)
	}
	return statusOK
}
