// Package learn holds yarngym's learners, one file each (grid.go, random.go,
// cmaes.go: black-box tuners; ppo.go: PPO on gorgonia), registered in
// learn.go, and the model files they write (model.go). They set the papers'
// thresholds through the environment's action space.
//
// gorgonia v0.9.18 panics at start-up on Go 1.26 unless
// go4.org/unsafe/assume-no-moving-gc is at v0.0.0-20231121144256-b99613f794b6
// or later; go.mod pins it, and gorgonia_test.go proves the pin works.
// gorgonia's weight initialisers seed from the wall clock: learners here draw
// initial weights from the run's generator and pass them in.
package learn
