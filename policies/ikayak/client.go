package ikayak

import "yarngym/env/sim"

// OneSparkApp models the YARN-client deployment of Spark, a baseline of
// iKayak Sec. 5.1: the driver runs in the client process, which "hosts only
// one Spark application at one time". It is a limit on the scheduler's
// allocation loop (not an admission part, whose head-of-line queue would
// hold MapReduce jobs back behind a waiting Spark application): a Spark
// application's ApplicationMaster is launched only when no other Spark
// application has its AM running, Spark applications in admission order;
// MapReduce jobs are never held back. The generator's spark_mode = "client"
// gives the matching small AM (the launcher, not the driver).
type OneSparkApp struct{}

// Allow implements base.Limit.
func (OneSparkApp) Allow(h sim.Handle, t *sim.Task, _ *sim.Node) bool {
	if t.Kind != sim.KindAM || t.Job.Spec.Framework != "spark" {
		return true
	}
	for _, j := range h.Active() {
		if j == t.Job || j.Spec.Framework != "spark" || j.AM == nil {
			continue
		}
		if j.AM.State == sim.TaskRunning {
			return false // another application's driver is busy
		}
		if j.AM.State == sim.TaskPending && j.ID < t.Job.ID {
			return false // an earlier application goes first
		}
	}
	return true
}
