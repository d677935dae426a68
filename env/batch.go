package env

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"yarngym/env/sim"
)

// Batch is N independent Envs built from one Config, reset and stepped in
// one call on a pool of K worker goroutines. Buffers are flat and owned by
// the caller: env i's action is actions[i*ActDim():(i+1)*ActDim()], its
// observation obs[i*ObsDim():(i+1)*ObsDim()], and so on. The results do not
// depend on K: every env runs alone on its own buffers.
//
// Autoreset is SAME_STEP (gymnasium's AutoresetMode.SAME_STEP): an env whose
// episode ends (terminated or truncated) in a Step writes that final
// observation to finalObs, is reset at once with seed
// sim.DeriveSeed(lastSeed, 1), and its reset observation goes to obs; its
// reward and flags are those of the ending step. So obs always holds an
// observation to act on, and no step is spent on resetting.
//
// A Batch is not safe for concurrent use. Close stops its workers (a Batch
// that becomes unreachable is closed too).
type Batch struct {
	core *batchCore
}

type batchCore struct {
	envs           []*Env
	obsDim, actDim int
	k              int
	infos          []Info
	errs           []error

	// The call in progress, read by the workers.
	mode      int // modeReset or modeStep
	seeds     []uint64
	mask      []bool
	actions   []float64
	obs       []float32
	rewards   []float64
	term      []bool
	trunc     []bool
	finalObs  []float32
	next      atomic.Int64
	wg        sync.WaitGroup
	work      chan struct{}
	closeOnce sync.Once
}

const (
	modeReset = iota
	modeStep
	modeStepSome
)

// NewBatch builds n Envs from cfg and a pool of k workers (0 means
// runtime.GOMAXPROCS(0); 1 runs every env on the calling goroutine; more
// workers than envs are not started). Call Reset before Step.
func NewBatch(cfg Config, n, k int) (*Batch, error) {
	if n < 1 {
		return nil, fmt.Errorf("batch: n = %d, want at least 1 env", n)
	}
	if k < 0 {
		return nil, fmt.Errorf("batch: k = %d workers, want 0 (GOMAXPROCS) or more", k)
	}
	if k == 0 {
		k = runtime.GOMAXPROCS(0)
	}
	k = min(k, n)
	c := &batchCore{k: k, envs: make([]*Env, n), infos: make([]Info, n), errs: make([]error, n)}
	first, err := New(cfg)
	if err != nil {
		return nil, err
	}
	c.envs[0] = first
	for i := 1; i < n; i++ {
		// The envs share the first one's scenario (read-only once loaded):
		// a trace is read once per batch.
		if c.envs[i], err = newEnv(cfg, first.sc); err != nil {
			return nil, err
		}
	}
	c.obsDim, c.actDim = c.envs[0].ObsDim(), c.envs[0].ActDim()
	b := &Batch{core: c}
	if k > 1 {
		c.work = make(chan struct{}, k)
		for w := 1; w < k; w++ {
			go c.worker(c.work)
		}
		runtime.AddCleanup(b, func(c *batchCore) { c.close() }, c)
	}
	return b, nil
}

// AutoresetMode names the autoreset convention: "same-step".
func (b *Batch) AutoresetMode() string { return "same-step" }

// N is the number of envs.
func (b *Batch) N() int { return len(b.core.envs) }

// Workers is the number of goroutines a call uses (the caller's included).
func (b *Batch) Workers() int { return b.core.k }

// ObsDim is one env's observation length; ActDim its action length.
func (b *Batch) ObsDim() int { return b.core.obsDim }

// ActDim is one env's action length.
func (b *Batch) ActDim() int { return b.core.actDim }

// ObservationSpace is one env's observation space.
func (b *Batch) ObservationSpace() Box { return b.core.envs[0].ObservationSpace() }

// ActionSpace is one env's action space.
func (b *Batch) ActionSpace() Box { return b.core.envs[0].ActionSpace() }

// FeatureNames names one env's observation entries.
func (b *Batch) FeatureNames() []string { return b.core.envs[0].FeatureNames() }

// Env returns env i, for inspection.
func (b *Batch) Env(i int) *Env { return b.core.envs[i] }

// Infos returns each env's Info from the last call (the ending step's for an
// env that was autoreset). The slice is reused by the next call.
func (b *Batch) Infos() []Info { return b.core.infos }

// Close stops the workers. The Batch must not be used afterwards; a second
// Close is harmless.
func (b *Batch) Close() { b.core.close() }

// Reset resets the envs where mask is true (every env when mask is nil)
// with seeds[i], writing their observations to obs (N*ObsDim; other envs'
// entries are left alone). seeds has N entries.
func (b *Batch) Reset(seeds []uint64, mask []bool, obs []float32) error {
	c := b.core
	n := len(c.envs)
	switch {
	case len(seeds) != n:
		return fmt.Errorf("batch reset: seeds has %d entries, want %d", len(seeds), n)
	case mask != nil && len(mask) != n:
		return fmt.Errorf("batch reset: mask has %d entries, want %d (or nil)", len(mask), n)
	case len(obs) != n*c.obsDim:
		return fmt.Errorf("batch reset: obs has %d values, want %d (%d envs x %d)", len(obs), n*c.obsDim, n, c.obsDim)
	}
	c.mode, c.seeds, c.mask, c.obs = modeReset, seeds, mask, obs
	return c.run()
}

// Step steps every env with its action, writing observations, rewards and
// flags, and autoresets the envs that ended (see Batch). actions has
// N*ActDim values, obs and finalObs N*ObsDim (finalObs is written only for
// envs that ended, and may be nil to discard final observations), rewards,
// terminated and truncated N.
func (b *Batch) Step(actions []float64, obs []float32, rewards []float64, terminated, truncated []bool, finalObs []float32) error {
	c := b.core
	n := len(c.envs)
	switch {
	case len(actions) != n*c.actDim:
		return fmt.Errorf("batch step: actions has %d values, want %d (%d envs x %d)", len(actions), n*c.actDim, n, c.actDim)
	case len(obs) != n*c.obsDim:
		return fmt.Errorf("batch step: obs has %d values, want %d (%d envs x %d)", len(obs), n*c.obsDim, n, c.obsDim)
	case finalObs != nil && len(finalObs) != n*c.obsDim:
		return fmt.Errorf("batch step: final_obs has %d values, want %d (or nil)", len(finalObs), n*c.obsDim)
	case len(rewards) != n:
		return fmt.Errorf("batch step: rewards has %d entries, want %d", len(rewards), n)
	case len(terminated) != n:
		return fmt.Errorf("batch step: terminated has %d entries, want %d", len(terminated), n)
	case len(truncated) != n:
		return fmt.Errorf("batch step: truncated has %d entries, want %d", len(truncated), n)
	}
	if err := c.checkSteps(nil, actions); err != nil {
		return err
	}
	c.mode, c.actions, c.obs, c.rewards, c.term, c.trunc, c.finalObs = modeStep, actions, obs, rewards, terminated, truncated, finalObs
	return c.run()
}

// StepSome steps the envs where mask is true (every env when mask is nil)
// and never autoresets: an env that ends stays ended until Reset, and
// stepping it again is an error. Buffers are as for Step (every env's rows;
// only the stepped envs' rows are written). It serves evaluation, where
// each env plays one episode of its own seed.
func (b *Batch) StepSome(mask []bool, actions []float64, obs []float32, rewards []float64, terminated, truncated []bool) error {
	c := b.core
	n := len(c.envs)
	switch {
	case mask != nil && len(mask) != n:
		return fmt.Errorf("batch step: mask has %d entries, want %d (or nil)", len(mask), n)
	case len(actions) != n*c.actDim:
		return fmt.Errorf("batch step: actions has %d values, want %d (%d envs x %d)", len(actions), n*c.actDim, n, c.actDim)
	case len(obs) != n*c.obsDim:
		return fmt.Errorf("batch step: obs has %d values, want %d (%d envs x %d)", len(obs), n*c.obsDim, n, c.obsDim)
	case len(rewards) != n || len(terminated) != n || len(truncated) != n:
		return fmt.Errorf("batch step: rewards, terminated and truncated have %d, %d and %d entries, want %d", len(rewards), len(terminated), len(truncated), n)
	}
	if err := c.checkSteps(mask, actions); err != nil {
		return err
	}
	c.mode, c.mask, c.actions, c.obs, c.rewards, c.term, c.trunc = modeStepSome, mask, actions, obs, rewards, terminated, truncated
	return c.run()
}

// checkSteps checks every env's step before any env steps, so that a bad
// action for one env (a NaN, say) leaves every env as it was.
func (c *batchCore) checkSteps(mask []bool, actions []float64) error {
	ad := c.actDim
	for i, e := range c.envs {
		if mask != nil && !mask[i] {
			continue
		}
		if err := e.CheckStep(actions[i*ad : (i+1)*ad]); err != nil {
			return fmt.Errorf("env %d: %w (no env was stepped)", i, err)
		}
	}
	return nil
}

// run does the current call on every env and returns the first error by
// env index.
func (c *batchCore) run() error {
	if c.work == nil && c.k > 1 {
		return errors.New("batch: closed")
	}
	clear(c.errs)
	c.next.Store(0)
	if c.k > 1 {
		c.wg.Add(c.k - 1)
		for w := 1; w < c.k; w++ {
			c.work <- struct{}{}
		}
	}
	c.drain()
	if c.k > 1 {
		c.wg.Wait()
	}
	// Drop the caller's buffers so the Batch keeps no reference to them.
	c.seeds, c.mask, c.actions, c.obs, c.rewards, c.term, c.trunc, c.finalObs = nil, nil, nil, nil, nil, nil, nil, nil
	for i, err := range c.errs {
		if err != nil {
			return fmt.Errorf("env %d: %w", i, err)
		}
	}
	return nil
}

func (c *batchCore) worker(work <-chan struct{}) {
	for range work {
		c.drain()
		c.wg.Done()
	}
}

// drain takes envs off the shared counter until none is left.
func (c *batchCore) drain() {
	n := int64(len(c.envs))
	for {
		i := c.next.Add(1) - 1
		if i >= n {
			return
		}
		c.errs[i] = c.one(int(i))
	}
}

// PanicError is env i's error when its reset or step panicked: a bug in
// yarngym, not in the caller's input. That env is left in an unknown state
// and must not be used again (the C ABI refuses every later call on its
// batch). Batch's calls return it wrapped ("env 3: panic: ..."); find it
// with errors.As.
type PanicError struct {
	Value any    // what was passed to panic
	Stack []byte // the panicking goroutine's stack (runtime/debug.Stack)
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// one runs the current call on env i. A panic becomes env i's error, a
// *PanicError.
func (c *batchCore) one(i int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	e := c.envs[i]
	od := c.obsDim
	obs := c.obs[i*od : (i+1)*od]
	if c.mode == modeReset {
		if c.mask != nil && !c.mask[i] {
			return nil
		}
		c.infos[i], err = e.ResetInto(c.seeds[i], obs)
		return err
	}
	if c.mode == modeStepSome && c.mask != nil && !c.mask[i] {
		return nil
	}
	act := c.actions[i*c.actDim : (i+1)*c.actDim]
	r, term, trunc, info, err := e.StepInto(act, obs)
	c.rewards[i], c.term[i], c.trunc[i], c.infos[i] = r, term, trunc, info
	if err != nil || !(term || trunc) || c.mode == modeStepSome {
		return err
	}
	if c.finalObs != nil {
		copy(c.finalObs[i*od:(i+1)*od], obs)
	}
	_, err = e.ResetInto(sim.DeriveSeed(e.Seed(), 1), obs)
	return err
}

func (c *batchCore) close() {
	c.closeOnce.Do(func() {
		if c.work != nil {
			close(c.work)
			c.work = nil
		}
	})
}
