package task

// table lists the tasks, one constructor each, in listing order. A task
// is defined in its paper's file; adding one is one line here.
//
// Not registered, because their return does not respond to the action
// beyond seed noise (measured with `yarngym baselines` on candidate
// definitions, 20 test seeds, paired; every figure below is from before the
// oracle fixes merged at 8cf3267 and 30712e2, which moved FB-2009
// hours' returns, and was not measured again):
//
//   - The stock schedulers' AM share on opera-mr (Fair), dress-spark and
//     ikayak (Capacity) and ras (Fair), and quick: the return is constant
//     over the whole range except the deadlock point (max_am_share 0).
//   - A SWIM FB-2009 hour per seed (scenario swim-hour, a family of
//     workloads): Fair's max_am_share and OPERA's rho. On 20 nodes the
//     return is flat but for the deadlock point; on 6-10 nodes it responds,
//     but one hour's few huge slowdowns dominate the paired differences:
//     the spread is 1.0-1.1 s.e. over 10 seeds.
//   - DRESS on a SWIM FB-2009 hour per seed (DRESS-FB-v0, its constructor in env/task/swim.go at 3d46680: theta
//     and delta_fixed, 20 nodes, test hours 20-23): the 5 x 6 grid's best
//     (theta 0.5, delta 0.25) minus worst non-stalling setting (theta
//     0.02, Alg. 3) is 8.6 +- 3.7 of slowdown on the test seeds (2.3 s.e.)
//     and 11.7 +- 3.5 on held-out train seeds (3.4 s.e.); delta 0 and 1
//     deadlock. The paper default is -11.0 +- 4.7, the best static setting
//     -2.1 +- 0.3 (+8.9 +- 4.4 paired). Of the two variations chosen in
//     advance, (a) the DRESS paper's congested cluster (5 nodes of 20
//     vCores, 80 GB) passes: 3.3 s.e. on the test seeds and 3.6 on
//     held-out seeds (4.7 and 3.3 since this round's oracle fixes),
//     registered as DRESS-FB5-v0 (swim.go); (b) a 3600 s
//     horizon on 20 nodes passes the rule only through a starvation point
//     and is not registered: delta 0 (no small-demand pool) leaves the
//     hour's small jobs pending at the horizon without the stall detector
//     firing (the large jobs still progress), so it counts as a
//     non-stalling setting, the worst (-400.1 +- 16.1); best (0.26, 0.25)
//     -1.50 +- 0.08 minus it is 399.6 +- 16.3 (24.5 s.e.) on the test
//     seeds and 382.2 +- 18.4 (20.8 s.e.) held out. Without delta 0 the
//     spread is 9.2 +- 4.0 (2.3 s.e., test seeds), as on 10800 s. Default
//     -11.0 +- 4.7, best static (0.38, 0.219) -1.57 +- 0.08.
//   - AutoAdmin's reservation on a SWIM FB-2009 hour per seed
//     (AutoAdmin-FB5-v0, defined before measuring as DRESS-FB5-v0's
//     environment with AutoAdmin-v0's action: rrp_scale over [0, 2], 9
//     points, default 1): the return is the same to the bit from 0 to 1.5
//     (-1.668 +- 0.071 on the test seeds, the same as with no reservation
//     at 0: the hour's AMs of 1 vCore never reach 100 vCores less R_R)
//     and falls only where the reservation starves admission: 1.75 gives
//     -3.29 +- 0.80, 2 -80.8 +- 16.9 (no stall). Best (0) minus worst
//     non-stalling (2) is 79.2 +- 16.8 on the test seeds (4.7 s.e.) but
//     272.1 +- 112.6 on held-out train seeds (2.4 s.e.): not registered.
//     The paper default (1) is the best static setting's return (1.55,
//     -1.668 +- 0.071, +0.000 paired); random -1.84 +- 0.10.
//   - OPERA's rho and posterior cutoff on a SWIM FB-2009 hour per seed
//     (OPERA-FB5-v0, defined before measuring as DRESS-FB5-v0's
//     environment with OPERA-v0's action: rho over [0.5, 2], the cutoff
//     over [0, 1], 5 x 5 grid, default (0.95, 0.5), 60 s interval): the
//     best non-stalling setting (rho 0.5, cutoff 1: no task is classified
//     short, so no opportunistic container, the same return for every rho)
//     -28.47 +- 8.54 minus the worst (rho 2, cutoff 0: every task may run
//     opportunistically, contention only above twice capacity) -48.56 +-
//     13.49 is 20.1 +- 5.1 on the test seeds (4.0 s.e.) but 127.9 +- 53.6
//     on held-out train seeds (2.4 s.e.): not registered. The paper
//     default is -29.13 +- 8.79, the best static setting (0.6875, 0.875)
//     -28.03 +- 8.21 (+1.10 +- 1.04 paired; -97.3 +- 36.5 on the train
//     seeds it was chosen on), random -29.72 +- 8.72; no setting stalls.
//     Both constructors (autoAdminFBHour, operaFBHour) are in swim.go at
//     d8cf7fa.
//
// Registered as a control task (Task.Control; its grid's spread is not
// confirmed on held-out seeds, a negative control for learners): iKayak's
// suspension v and theta on the Sec. 4.3 mix (iKayak-v0, ikayak.go); the
// same action on the paper's Sec. 2.2 case study passes (iKayakCase-v0).
var table = []func() *Task{
	autoAdmin66Fair,
	autoAdminScale,
	operaRhoCutoff,
	dressThetaDelta,
	dressMRThetaDelta,
	rasCycle,
	ikayakSuspend,
	ikayakCase,
	dressFBHourCongested,
	dressAlibabaHour,
}
