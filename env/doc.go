// Package env is yarngym's gym-style environment: a scenario (see
// yarngym/env/scenario) run by the cluster simulator (yarngym/env/sim) in
// steps of simulated time, with declared observation and action spaces, named
// reward objectives and a batched, vectorised step.
//
// # Episodes
//
// New loads the scenario once (a trace file is read then, not per reset).
// Reset(seed) builds a fresh run from it with that seed; every reset is
// independent, so the same seed always gives the same episode, bit for bit.
// Step(action) sets the controlled policy parameters (Config.Controlled),
// runs ControlIntervalS simulated seconds and returns the observation, the
// reward and the two end flags:
//
//   - terminated: the run ended on its own (every job done, or the remaining
//     jobs stuck: no task started, finished or progressed for the
//     scenario's run.stall_s, or nothing left to happen);
//   - truncated: the episode was cut short, by the horizon H
//     (Config.HorizonS), by Config.MaxSteps or by the scenario's own time
//     limit (run.max_s, sim Summary().Truncated). truncated is never set
//     together with terminated.
//
// Stepping an ended episode is an error: call Reset.
//
// # Actions
//
// The action is one float64 per controlled parameter, in the order of
// Config.Controlled. The action space is each parameter's [Min, Max] range as
// the policy declares it (sim.Param), or the narrower Config.Bounds. Values
// outside the range are clipped, integer parameters are rounded to the
// nearest integer, and NaN is an error. With no controlled parameters the
// action space has shape [0] and the action is ignored. Uncontrolled
// parameters keep their scenario values.
//
// # Observations
//
// The observation is a fixed-length float32 vector; FeatureNames names its
// entries in order. Every feature is scale-free and its declared bounds are
// its true bounds: values beyond a cap are clipped to it (NaN becomes 0).
// Capacities are the whole cluster's (sum over nodes); N is the number of
// jobs submitted before the horizon H; "the last interval" is the
// simulated time covered by the last Step (zero right after Reset).
//
//	 0 time_frac            simulated time / H                                 [0, 1]
//	 1 since_arrival_frac   (time - the last job submission) / H               [0, 1]
//	 2 jobs_arrived_frac    jobs submitted so far / N                          [0, 1]
//	 3 jobs_done_frac       jobs finished so far / N                           [0, 1]
//	 4 jobs_waiting_frac    submitted jobs not yet admitted / N                [0, 1]
//	 5 jobs_running_frac    admitted, unfinished jobs / N                      [0, 1]
//	 6 vcores_guaranteed    vCores held by guaranteed containers / vCores      [0, 1]
//	 7 vcores_opportunistic vCores held by opportunistic containers / vCores   [0, 2]
//	 8 cpu_used             CPU actually consumed (capped per node at its
//	                        physical cores; a task waiting on its disk, a
//	                        remote read or swap consumes only what its
//	                        progress does) / vCores                            [0, max(1, cores/vCores)]
//	 9 mem_reserved         memory held by all containers / memory             [0, 2]
//	10 mem_used             actual memory demand (may exceed capacity:
//	                        swapping) / memory                                 [0, 2]
//	11 cpu_gap              (vCores held - CPU used) / vCores                  [-2, 2]
//	12 mem_gap              (memory held - memory used) / memory               [-2, 2]
//	13 am_vcores            vCores held by running ApplicationMasters / vCores [0, 1]
//	14 pending_am_log       log1p(vCores asked for by pending AMs / vCores)    [0, 8]
//	15 pending_map_log      the same for pending map tasks                     [0, 8]
//	16 pending_reduce_log   ... pending reduce tasks                           [0, 8]
//	17 pending_executor_log ... pending Spark executors                        [0, 8]
//	18 pending_other_log    ... other pending tasks                            [0, 8]
//	19 kills_log            log1p(task attempts killed in the last interval /
//	                        nodes)                                             [0, 8]
//	20 wasted_log           log1p(work lost to those kills / (vCores x
//	                        interval length))                                  [0, 8]
//	21 jobs_completed_frac  jobs finished in the last interval / N             [0, 1]
//	22 swap_frac            node swap time in the last interval / (nodes x
//	                        interval length)                                   [0, 1]
//	 .. policy.NAME         every policy state variable (sim.Policy.State), in
//	                        declaration order, scaled by its declared range:
//	                        (x/per - Min) / (Max - Min), or log1p(x/per - Min)
//	                        / log1p(Max - Min) for Log variables, where per is
//	                        the cluster's vCores, memory, nodes or N as the
//	                        variable declares (sim.StateVar.Per)           [0, 1]
//	 .. param.NAME          every controlled parameter's current value,
//	                        scaled (v - low) / (high - low) over its action
//	                        range, in Config.Controlled order                [0, 1]
//
// "Pending" means asked for now, as sim.Sim.PendingDemand counts it: a job's
// AM while it waits for a container, then the released stages' waiting tasks
// once the AM has started up. Jobs waiting for admission ask for nothing
// (they appear in jobs_waiting_frac).
//
// # Rewards
//
// Each step charges what happened in its interval [t0, t1), so that an
// episode's rewards add up to its objectives exactly (up to floating-point
// rounding). Job j is in the system from its submission s_j to its finish
// f_j (f_j = +inf if it never finishes); the episode ends at T <= H. N is
// the number of jobs with s_j < H, and iso_j is j's isolated time, an
// estimate of its run time alone on the idle cluster (IsolatedMs). Every
// objective has a natural value V (a cost or a benefit) and enters the
// reward with the sign that makes more reward better:
//
//   - slowdown (cost): V = (1/N) sum_j (min(f_j, H) - s_j) / iso_j, the mean
//     job slowdown. A step adds -(1/N) sum_j |[s_j, f_j) ∩ [t0, t1)| /
//     iso_j: the job-seconds in the system (Little's law), each weighted by
//     its job's 1/iso.
//   - completion (cost, seconds): V = (1/N) sum_j (min(f_j, H) - s_j), the
//     mean job completion time; a step adds the same job-seconds,
//     unweighted, over N.
//   - utilization (benefit): V = ∫_0^T cpu_used(t) dt / (vCores x H), the
//     mean CPU actually used over the horizon; a step adds its share of the
//     integral (exact at every step: sim.Sim.UsedVCoreMs).
//   - kills (cost): V = attempts killed / N; a step adds its kills / N.
//   - wasted (cost, seconds): V = work lost to kills / N; likewise.
//   - throughput (benefit): V = jobs finished by T / N, the share of the
//     workload finished within the horizon; a step adds its finishers / N.
//
// The step that ends the episode also charges every unfinished job with
// s_j < H, still in the system or yet to be submitted, from max(T, s_j) to
// H: a job that never finishes costs H - s_j, the most any job can cost. So
// an episode that stalls the cluster (jobs stuck; run.stall_s decides when)
// or is truncated by MaxSteps or run.max_s before H is charged as if it had
// stalled until H, and a stall is the worst outcome for slowdown,
// completion, utilization and throughput ("stall-safe"). kills and wasted
// are zero when nothing runs, so a reward must give a stall-safe objective
// a positive weight; weights are non-negative.
//
// The reward is sum over Config.Reward of weight x sign x (the step's
// increment of V); the default is {"slowdown": 1}. Info reports each
// objective's term (Slowdown, ..., with the sign it enters the reward), the
// return so far (Return), and, on the step that ends the episode (Ended),
// each objective's V (EpisodeSlowdown, ...). The identity return = sum over
// objectives of weight x sign x V is tested against V recomputed from the
// job records (env_test.go, task_test.go).
//
// # Batches
//
// Batch steps N independent Envs built from one Config on a pool of worker
// goroutines, reading actions from and writing observations, rewards and
// flags to flat caller-owned buffers, with SAME_STEP autoreset (see Batch).
package env
