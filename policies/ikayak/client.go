package ikayak

import "yarngym/env/sim"

// OneSparkApp models the YARN-client deployment of Spark, a baseline of
// iKayak Sec. 5.1: the driver runs in the client process, which "hosts only
// one Spark application at one time". The client submits its next
// application to YARN when the one before has ended, so the applications
// it holds back are not in YARN at all: they hold no place in a queue, ask
// for nothing and count nothing against the CapacityScheduler's AM limit
// (LeafQueue.activateApplications counts an activated application's AM,
// amIfStarted, as soon as it is activated, launched or not).
//
// It is therefore an admission part, not an allocation limit (an earlier
// version refused the held applications' AM containers: admitted, they
// took the Spark queue's AM budget and asked for containers the whole run,
// which slowed MapReduce: on seed 1 of the ikayak scenario MapReduce jobs
// waited 89 s on average against 6.8 s under YARN-cluster). It passes
// (sim.PassingAdmitter): MapReduce jobs behind a held Spark application
// are submitted as they come. Spark applications go in submission order:
// one waits while another Spark application runs or an earlier one waits.
// The generator's spark_mode = "client" gives the matching small AM (the
// launcher, not the driver).
type OneSparkApp struct{}

// Passes implements sim.PassingAdmitter: a held Spark application holds
// back no other job.
func (OneSparkApp) Passes() bool { return true }

// OnJobEvents implements sim.JobEventAdmitter: whether a Spark application
// runs changes only when jobs are admitted or end.
func (OneSparkApp) OnJobEvents() bool { return true }

// Admit implements sim.Admitter.
func (OneSparkApp) Admit(h sim.Handle, j *sim.Job) bool {
	if j.Spec.Framework != "spark" {
		return true
	}
	for _, o := range h.Active() {
		if o != j && o.Spec.Framework == "spark" {
			return false // the client's driver is busy
		}
	}
	// During an admission pass the engine rewrites its waiting list in
	// place; an entry it has admitted this pass is active (refused above),
	// so only jobs still waiting are read here.
	for _, o := range h.Waiting() {
		if o.ID < j.ID && o.State == sim.JobWaiting && o.Spec.Framework == "spark" {
			return false // an earlier application goes first
		}
	}
	return true
}
