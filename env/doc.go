// Package env is yarngym's gym-style environment: a scenario (see
// yarngym/env/scenario) run by the cluster simulator (yarngym/env/sim) in
// steps of simulated time, with declared observation and action spaces, named
// reward objectives and a batched, vectorised step.
//
// # Episodes
//
// New loads the scenario once. Reset(seed) builds a fresh run from it with
// that seed; every reset is independent, so the same seed always gives the
// same episode, bit for bit. Step(action) sets the controlled policy
// parameters (Config.Controlled), runs ControlIntervalS simulated seconds and
// returns the observation, the reward and the two end flags:
//
//   - terminated: the run ended on its own (every job done, or the remaining
//     jobs stuck, or nothing left to happen);
//   - truncated: the episode was cut short, either by Config.MaxSteps or by
//     the scenario's own time limit (run.max_s, sim Summary().Truncated).
//     truncated is never set together with terminated.
//
// Stepping an ended episode is an error: call Reset.
//
// # Actions
//
// The action is one float64 per controlled parameter, in the order of
// Config.Controlled. The action space is each parameter's [Min, Max] range as
// the policy declares it (sim.Param). Values outside the range are clipped,
// integer parameters are rounded to the nearest integer, and NaN is an error.
// With no controlled parameters the action space has shape [0] and the
// action is ignored. Uncontrolled parameters keep their scenario values.
//
// # Observations
//
// The observation is a fixed-length float32 vector; FeatureNames names its
// entries in order. Capacities are the whole cluster's (sum over nodes).
// "The last interval" is the simulated time covered by the last Step (zero
// right after Reset).
//
//	 0 time_h            simulated time, hours                               [0, 1e9]
//	 1 vcores_guaranteed vCores held by guaranteed containers / vCores       [0, 1]
//	 2 vcores_opportunistic vCores held by opportunistic containers / vCores [0, 1e6]
//	 3 cpu_used          CPU actually consumed (capped per node at its
//	                     physical cores) / vCores                            [0, max(1, cores/vCores)]
//	 4 mem_reserved      memory held by all containers / memory              [0, 1e6]
//	 5 mem_used          actual memory demand (may exceed capacity:
//	                     swapping) / memory                                  [0, 1e6]
//	 6 cpu_gap           (vCores held by all containers - CPU used) / vCores [-1e6, 1e6]
//	 7 mem_gap           (memory held - memory used) / memory                [-1e6, 1e6]
//	 8 pending_am        vCores asked for by pending ApplicationMasters / vCores [0, 1e9]
//	 9 pending_map       vCores asked for by pending map tasks / vCores      [0, 1e9]
//	10 pending_reduce    vCores asked for by pending reduce tasks / vCores   [0, 1e9]
//	11 pending_executor  vCores asked for by pending Spark executors / vCores [0, 1e9]
//	12 pending_other     vCores asked for by other pending tasks / vCores    [0, 1e9]
//	13 jobs_waiting      submitted jobs not yet admitted (count)             [0, 1e9]
//	14 jobs_running      admitted, unfinished jobs (count)                   [0, 1e9]
//	15 ams_running       ApplicationMasters holding a container (count)      [0, 1e9]
//	16 tasks_killed      task attempts killed in the last interval (count)   [0, 1e9]
//	17 wasted_s          work lost to those kills, seconds                   [0, 1e9]
//	18 jobs_completed    jobs that finished in the last interval (count)     [0, 1e9]
//	19 swap_frac         node swap time in the last interval / (nodes x
//	                     interval length)                                    [0, 1]
//	 .. policy.NAME      every policy state variable (sim.Policy.State), in
//	                     declaration order                                   [-1e9, 1e9]
//	 .. param.NAME       every controlled parameter's current value, scaled
//	                     (v - Min) / (Max - Min), in Config.Controlled order [0, 1]
//
// "Pending" means asked for now, as sim.Sim.PendingDemand counts it: a job's
// AM while it waits for a container, then the released stages' waiting tasks
// once the AM has started up. Jobs waiting for admission ask for nothing
// (they appear in jobs_waiting). Every value is clamped to its bounds (NaN
// becomes 0), so an observation always lies in the declared space.
//
// # Rewards
//
// The reward is sum over Config.Reward of weight x objective, with these
// objectives (each also reported in Info, with the sign it enters the reward):
//
//   - slowdown: minus the mean slowdown of the jobs that finished in the
//     interval (0 if none did). A job's slowdown is its completion time
//     (finish - submit) over an estimate of its isolated time: the model's AM
//     start-up (if it has an AM) plus, per stage, its longest nominal task
//     duration, floored at 1 s. It is an estimate: overlapping stages
//     (reducers' slow-start) or fast nodes can bring a slowdown below 1.
//   - completion: minus the mean completion time, in hours, of the jobs that
//     finished in the interval (0 if none did).
//   - utilization: mean CPU actually consumed / cluster vCores over the
//     interval, from the run's exact integral of actual use (the integral
//     is brought up to date at each event, so an interval's share can lag
//     by up to the gap before its last event; the sum over an episode is
//     exact).
//   - kills: minus the task attempts killed in the interval.
//   - wasted: minus the work lost to kills in the interval, in hours.
//   - throughput: the number of jobs that finished in the interval.
//
// The default is {"slowdown": 1}.
//
// # Batches
//
// Batch steps N independent Envs built from one Config on a pool of worker
// goroutines, reading actions from and writing observations, rewards and
// flags to flat caller-owned buffers, with SAME_STEP autoreset (see Batch).
package env
