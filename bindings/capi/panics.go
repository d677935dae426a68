package main

import (
	"errors"
	"fmt"
	"strings"

	"yarngym/env"
)

// A Go panic is a bug in yarngym, never the caller's fault, and the state
// it leaves behind is unknown: the handle it happened on (a batch, from an
// env's engine or from the export itself, or a run) is poisoned. Every
// later call on that handle but free returns YG_ERR_PANIC with a message
// naming the original panic; the caller frees it and starts afresh. Every
// panic is YG_ERR_PANIC, wherever it was recovered (in env.Batch's workers,
// which return it as an *env.PanicError, or in an export's guard).

// panicPrefix starts the message of the call that panicked.
const panicPrefix = "yarngym internal error (Go panic, a bug in yarngym): "

// describePanic is a panic's value and where it was raised: the first
// frame below panic() outside the runtime, as "value [at file:line]".
func describePanic(value any, stack []byte) string {
	s := fmt.Sprint(value)
	if loc := panicLocation(stack); loc != "" {
		s += " [at " + loc + "]"
	}
	return s
}

// panicLocation finds, in a goroutine stack as runtime/debug.Stack writes
// it (a function line, then a tab-indented file:line +0x.. line, per
// frame), the file and line of the first frame called by panic() that is
// not the runtime's (a nil dereference goes through runtime.sigpanic).
func panicLocation(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	seen := false
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if strings.HasPrefix(fn, "\t") || fn == "" {
			continue
		}
		if strings.HasPrefix(fn, "panic(") {
			seen = true
			continue
		}
		if !seen || strings.HasPrefix(fn, "runtime.") {
			continue
		}
		loc := strings.TrimSpace(lines[i+1])
		if k := strings.LastIndex(loc, " +0x"); k >= 0 {
			loc = loc[:k]
		}
		return loc
	}
	return ""
}

// envPanic returns the message of an error carrying an env's
// *env.PanicError ("env 3: value [at file:line]"), and whether it does.
func envPanic(err error) (string, bool) {
	var pe *env.PanicError
	if !errors.As(err, &pe) {
		return "", false
	}
	return strings.TrimSuffix(err.Error(), pe.Error()) + describePanic(pe.Value, pe.Stack), true
}

// panicErr is the YG_ERR_PANIC error of the call that panicked, on handle
// id (0: none).
func panicErr(detail string, id int64) error {
	msg := panicPrefix + detail
	if id > 0 {
		msg += fmt.Sprintf("; handle %d can no longer be used: free it (close the environment) and create a new one", id)
	}
	return &statusError{statusPanic, msg}
}

// poisonedErr is what every call on a poisoned handle returns.
func poisonedErr(id int64, detail string) error {
	return &statusError{statusPanic, fmt.Sprintf(
		"handle %d is unusable after an internal error (Go panic, a bug in yarngym) in an earlier call: %s; free it (close the environment) and create a new one",
		id, detail)}
}

// poisonHandle records that a call on handle id panicked with detail (a
// batch's mutex must not be held) and returns the call's error. Handle 0,
// or one unknown or already freed, is only reported.
func poisonHandle(id int64, detail string) error {
	if id <= 0 {
		return panicErr(detail, 0)
	}
	handles.Lock()
	h, r := handles.m[id], runs[id]
	if r != nil && r.poison == "" {
		r.poison = detail
	}
	handles.Unlock()
	if h != nil {
		h.mu.Lock()
		if h.poison == "" {
			h.poison = detail
		}
		h.mu.Unlock()
	}
	if h == nil && r == nil {
		return panicErr(detail, 0)
	}
	return panicErr(detail, id)
}
