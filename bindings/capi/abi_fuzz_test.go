//go:build capifuzz

package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"testing"
)

// FuzzABI drives the exported C functions as a careless C client would: a
// sequence of calls decoded from the input, on live, freed and made-up
// handles, with sizes, counts, capacities and flags out of range, NULL
// where the header allows it and where it does not, NaN, infinite and huge
// actions, any seeds and mask bytes, and configs well-formed or not. Every
// buffer is as large as the header says for the arguments given (the
// library cannot check a C buffer's length: a count that disagrees with the
// handle's must be refused, not overrun). Every call must return a status
// of yarngym.h; YG_ERR_PANIC, a Go panic reaching the export's guard, is a
// bug and fails the target.
//
//	go test -tags capifuzz ./bindings/capi -run '^$' -fuzz FuzzABI -fuzztime 10m
func FuzzABI(f *testing.F) {
	f.Add([]byte{0, 0, 2, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 1, 0})
	f.Add([]byte{0, 1, 1, 0, 1, 6, 0, 3, 1, 4, 0, 2, 20, 2, 0, 1, 3, 0})
	f.Add([]byte{9, 0, 0, 9, 1, 0, 10, 0, 5, 10, 1, 0, 8, 4, 50, 1, 12, 7})
	f.Add([]byte{0, 5, 3, 1, 0, 5, 0, 0, 1, 6, 0, 0, 1, 6, 0, 7, 7, 1, 1, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		// The last error is kept per OS thread: stay on one.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		in := &input{data: data}
		var batches, runs []int64
		pick := func(hs []int64) int64 {
			switch k := in.byte(); {
			case k < 200 && len(hs) > 0:
				return hs[int(k)%len(hs)]
			case k < 230:
				return int64(in.int8())
			}
			return int64(in.uint64() >> 1)
		}
		check := func(call string, st int32) {
			t.Helper()
			if st == statusPanic {
				t.Fatalf("%s: YG_ERR_PANIC (a Go panic): %s", call, lastError())
			}
			if st < statusOK || st > statusPanic {
				t.Fatalf("%s: status %d is not one of yarngym.h's", call, st)
			}
		}
		for steps := 0; steps < 24 && !in.done(); steps++ {
			switch op := in.byte() % 13; op {
			case 0: // a batch
				st, h := abiBatchNew(in.config(), int32(in.int8()), int32(in.int8()), int32(in.int8()), in.bool())
				check("yg_batch_new", st)
				if st == statusOK {
					batches = append(batches, h)
				}
			case 1:
				check("yg_batch_free", abiBatchFree(pick(batches)))
			case 2:
				st, _, _, _, _ := abiDims(pick(batches), in.bool())
				check("yg_batch_dims", st)
			case 3:
				h := pick(batches)
				check("yg_batch_spaces", abiSpaces(h, dims(h), in.bool()))
			case 4:
				check("yg_batch_string", abiBatchString(pick(batches), int32(in.int8()), int32(in.int8()), in.bool()))
			case 5: // reset
				h := pick(batches)
				seeds := []uint64{in.uint64(), in.uint64()}
				mask := []byte{in.byte(), in.byte(), in.byte()}
				check("yg_batch_reset", abiReset(h, dims(h), seeds, mask, in.bool(), in.bool(), in.bool()))
			case 6: // step
				h := pick(batches)
				acts := []float64{in.float(), in.float(), in.float()}
				check("yg_batch_step", abiStep(h, dims(h), acts, in.bool(), in.bool(), in.bool()))
			case 7:
				h := pick(batches)
				check("yg_batch_seeds", abiSeeds(h, dims(h)))
			case 8:
				check("yg_registry", abiRegistry(int32(in.int8()), int32(in.int8())*64, in.bool()))
			case 9: // a run, read back with counts off by -1, 0 or +1
				st, h := abiRunNew(in.runConfig())
				check("yg_run_new", st)
				if st == statusOK {
					runs = append(runs, h)
				}
				r := pick(runs)
				for i, s := range abiRunRows(r, int64(in.byte()%3)-1, in.bool()) {
					check(fmt.Sprintf("yg_run rows call %d on %d", i, r), s)
				}
			case 10:
				check("yg_run_free", abiRunFree(pick(runs)))
			case 11:
				check("yg_evaluate", abiEvaluate(in.evalConfig(), int32(in.int8())))
			case 12:
				check("yg_last_error", abiLastError(int32(in.int8())))
			}
		}
		for _, h := range batches {
			check("yg_batch_free", abiBatchFree(h))
		}
		for _, h := range runs {
			check("yg_run_free", abiRunFree(h))
		}
	})
}

// dims are a handle's buffer sizes (all zero for a handle that is not a
// live batch: the call then fails before it touches a buffer).
func dims(h int64) size {
	st, n, obs, act, info := abiDims(h, false)
	if st != statusOK {
		return size{}
	}
	return size{n: int(n), obs: int(obs), act: int(act), info: int(info)}
}

func lastError() string {
	m, _ := lastErrorString()
	return m
}

// input reads a fuzz input's bytes; past its end, zeros.
type input struct {
	data []byte
	at   int
}

func (in *input) done() bool { return in.at >= len(in.data) }

func (in *input) byte() byte {
	if in.at >= len(in.data) {
		return 0
	}
	in.at++
	return in.data[in.at-1]
}

func (in *input) bool() bool { return in.byte()&1 == 1 }
func (in *input) int8() int8 { return int8(in.byte()) }

func (in *input) uint64() uint64 {
	var b [8]byte
	for i := range b {
		b[i] = in.byte()
	}
	return binary.LittleEndian.Uint64(b[:])
}

// float is one of the special values, or any float64 bit pattern.
func (in *input) float() float64 {
	if k := in.byte(); k < 128 {
		return specials[int(k)%len(specials)]
	}
	return math.Float64frombits(in.uint64())
}

// str is a short string of the input's bytes.
func (in *input) str() string {
	n := int(in.byte() % 24)
	b := make([]byte, n)
	for i := range b {
		b[i] = in.byte()
	}
	return string(b)
}

// config is a batch config: a few well-formed ones (cheap: quick, a few
// steps), some that are wrong in one field, or raw bytes.
func (in *input) config() string {
	configs := []string{
		`{"scenario":"quick","controlled":["max_am_share"],"max_steps":3}`,
		`{"scenario":"quick","max_steps":2}`,
		`{"scenario":"quick","controlled":["max_am_share"],"bounds":{"max_am_share":[0.2,0.8]},"max_steps":2,"reward":{"slowdown":1,"utilization":0.5}}`,
		`{"scenario":"quick","controlled":["max_am_share"],"bounds":{"max_am_share":[1,0]}}`,
		`{"scenario":"quick","controlled":["no_such_param"]}`,
		`{"scenario":"nope"}`,
		`{"scenario":"quick","control_interval_s":-5}`,
		`{"scenario":"quick","horizon_s":1e300,"max_steps":1}`,
		`{"scenario":"quick","reward":{"slowdown":NaN}}`,
		`{"scenario":"quick","sets":["workload.jobs.0.count=0"]}`,
		`[]`, ``, `{`, `null`,
	}
	if k := in.byte(); k < 240 {
		return configs[int(k)%len(configs)]
	}
	return in.str()
}

func (in *input) runConfig() string {
	configs := []string{
		`{"scenario":"quick","seed":3,"timeline_s":50}`,
		`{"scenario":"quick","sets":["max_am_share=0.3"]}`,
		`{"scenario":"quick","timeline_s":-1}`,
		`{"scenario":"nope"}`,
		`{}`, `{`,
	}
	if k := in.byte(); k < 240 {
		return configs[int(k)%len(configs)]
	}
	return in.str()
}

func (in *input) evalConfig() string {
	configs := []string{
		`{"task":"AutoAdmin66-Fair-v0","action":[0.25],"seeds":[1000]}`,
		`{"task":"AutoAdmin66-Fair-v0","action":[NaN],"seeds":[1]}`,
		`{"task":"AutoAdmin66-Fair-v0","action":[0.25,1],"seeds":[1]}`,
		`{"task":"AutoAdmin66-Fair-v0","seeds":[]}`,
		`{"task":"nope","action":[1],"seeds":[1]}`,
		`{"task":"AutoAdmin66-Fair-v0","model":"/nonexistent","seeds":[1]}`,
		`{`,
	}
	if k := in.byte(); k < 240 {
		return configs[int(k)%len(configs)]
	}
	return in.str()
}
