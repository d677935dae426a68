package sim

import "fmt"

// A stage with StageSpec.PartitionExecutors is a Spark application's
// executors under static allocation, its tasks the partitions they run.
//
// Spark on YARN: the driver's YarnAllocator asks the ResourceManager for
// targetNumExecutors containers (spark.executor.instances under static
// allocation; updateResourceRequests asks for target - pending - running),
// and each container it gets runs one CoarseGrainedExecutorBackend, a
// long-lived JVM. The driver's TaskSchedulerImpl.resourceOffers gives an
// executor with a free core the next pending task of the running task set
// (TaskSetManager.dequeueTask), which the executor runs in its own JVM: no
// container request or release between tasks. An executor with no task
// left stays registered, holding its container, until the SparkContext
// stops at the application's end (dynamic allocation, which would release
// it after spark.dynamicAllocation.executorIdleTimeout, is off by default:
// Utils.isDynamicAllocationEnabled). A task whose executor is lost
// (TaskSetManager.executorLost: its container killed or preempted) is
// pending again, first in line (handleFailedTask -> addPendingTask appends
// it to the pending lists, which dequeueTaskFromList takes from the end),
// and the YarnAllocator asks for a container to replace the executor.
//
// yarngym runs this with one core per executor (the stage's request is the
// executor's container; DRESS's jobs ask for 1 vCore each) and asks for
// executors as a capped stage asks for its containers (capped.go: at most
// MaxRunning held, asked through the AM heartbeat). So:
//
//   - A container the scheduler gives the stage starts an executor with the
//     stage's first pending partition (Launch binds it, as for any task).
//   - When a partition ends, its executor starts the stage's next pending
//     partition, in queue order, at once in the same container (same node,
//     allocation and container id): keepExecutor, executorFree.
//   - With no partition pending, the executor idles (Stage.idle), its
//     container still allocated to the job, its node and the cluster, and
//     counted among the stage's MaxRunning (Stage.Held), so the AM asks for
//     no other. Its process uses nothing (an idle JVM's memory is not
//     modelled), and it is not in Node.Containers: policies that pick
//     containers to kill or preempt do not see it.
//   - When the job's last partition ends, every idle executor's container
//     is released as a finished one (at its node's next heartbeat,
//     release.go); the job then commits and ends as any other.
//   - Kill or Preempt of a partition loses its executor (the container goes
//     as any killed one) and puts the partition back first in its stage's
//     queue; an idle executor of the stage, if any, runs it at once
//     (idleTakes, oldest first: Spark's resourceOffers shuffles its offers,
//     yarngym takes a fixed order), and the AM asks for a replacement as the
//     capped stage's count allows.
//
// The driver schedules no task before enough executors have registered:
// the SparkContext waits in TaskSchedulerImpl.waitBackendReady until the
// backend isReady (CoarseGrainedSchedulerBackend: registered executors >=
// totalExpectedExecutors x spark.scheduler.minRegisteredResourcesRatio,
// 0.8 on YARN (YarnSchedulerBackend), or spark.scheduler.
// maxRegisteredResourcesWaitingTime, 30 s, passed since the backend's
// creation). So, for a stage whose AM is modelled (a capped stage,
// capped.go), each executor the AM takes before then registers and idles
// (idleUntilReady: its partition stays scheduled, first in line), and at
// the first AM heartbeat where 0.8 x MaxRunning of them have (counted as
// Spark does, in floating point) or 30 s have passed since the AM
// registered, the idle executors take the first partitions (checkRegistered).
// Simplifications: an executor registers when its AM takes its container
// (the JVM's start-up is not modelled), the wait is timed from the AM's
// registration (the backend is created as the driver starts, just before),
// and readiness is checked on the AM's heartbeats (waitBackendReady polls
// every 100 ms). A stage without a modelled AM heartbeat does not wait.
//
// The oracle's driver plays the same executors (oracle/FORMAT.md,
// "partition_executors").

// idleExecutor is an executor container holding no partition.
type idleExecutor struct {
	n      *Node
	alloc  Res
	kind   ContainerKind
	seq    int64 // its container's LaunchSeq
	shrunk int64
}

// keepExecutor takes finished partition t off its node while its executor
// keeps the container, and returns that container.
func (s *Sim) keepExecutor(t *Task) idleExecutor {
	e := idleExecutor{n: t.Node, alloc: t.Alloc, kind: t.Container, seq: t.LaunchSeq, shrunk: t.shrunk}
	s.removeContainer(t, releaseKept)
	return e
}

// executorFree gives executor e, whose partition of stage st has just
// ended, the stage's next pending partition, or keeps it idle (complete
// releases the job's idle executors once it has no partition left).
func (s *Sim) executorFree(st *Stage, e idleExecutor) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	if p := st.headPending(); p != nil {
		s.runInExecutor(p, e)
		return
	}
	st.idle = append(st.idle, e)
}

// idleTakes starts stage st's pending partitions in its idle executors,
// oldest first, while both remain (none while its driver waits for
// executors).
func (s *Sim) idleTakes(st *Stage) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	for len(st.idle) > 0 && !st.waitReg {
		p := st.headPending()
		if p == nil {
			return
		}
		e := st.idle[0]
		st.idle = append(st.idle[:0], st.idle[1:]...)
		s.runInExecutor(p, e)
	}
}

// runInExecutor starts pending partition p in executor container e: p's
// attempt starts now, in e's container (no new allocation, LaunchSeq kept).
func (s *Sim) runInExecutor(p *Task, e idleExecutor) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	if p.State != TaskPending {
		panic(fmt.Sprintf("executor start of %s: task is %v", p, p.State))
	}
	n, j, st := e.n, p.Job, p.Stage
	s.advance(n)
	if p.reservedOn != nil && st.counted() && s.policy.KeepReservations {
		// The node was reserved for the stage's request, which the
		// executor has not met: it stands for another (asks.go).
		s.moveReservation(p)
	}
	if p.reservedOn != nil || p.extraResv > 0 {
		s.dropReservations(p, n)
	}
	left := p.startAttempt(n, e.kind, e.alloc, e.seq, e.shrunk, s.now)
	p.bound = false
	p.runMs = s.now
	if st.Index > 0 {
		s.learnMaps(p)
	}
	p.Locality = s.LocalityOf(p, n)
	// Node.Containers is in launch order: the container goes back in its
	// place among them.
	i := len(n.Containers)
	for i > 0 && n.Containers[i-1].LaunchSeq > e.seq {
		i--
	}
	n.Containers = append(n.Containers, nil)
	copy(n.Containers[i+1:], n.Containers[i:])
	n.Containers[i] = p
	n.slots = append(n.slots, slot{})
	copy(n.slots[i+1:], n.slots[i:])
	n.slots[i] = slot{left: left, prev: -1, flags: slotDirty}
	for k := i; k < len(n.Containers); k++ {
		n.Containers[k].pos = k
	}
	j.Running++
	st.Pending--
	st.Running++
	if e.kind == Guaranteed {
		st.heldG++
	}
	st.LastStartMs = s.now
	if st.capped {
		st.amDirty = true // a task no longer scheduled: its entry changed (capped.go)
		s.scheduleAMBeat(j)
	}
	s.setUsage(p, n)
	s.progress()
	s.markDirty(n)
	s.wake(n)
	s.touch(j)
	if len(p.phases) == 0 || left <= epsWork {
		s.settle(n)
	}
}

// releaseExecutors releases job j's idle executors, its last partition
// ended: their processes exit as the SparkContext stops, each container
// freed as a finished one (release.go).
func (s *Sim) releaseExecutors(j *Job) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	for _, st := range j.Stages {
		for _, e := range st.idle {
			if st.counted() {
				st.unreported++ // the AM counts it assigned until told (capped.go)
			}
			if s.model.ImmediateRelease {
				s.free(e.n, j, e.alloc, e.kind)
				if st.unreported > 0 {
					st.freedSince++
				}
			} else {
				s.releaseLater(e.n, j, e.alloc, e.kind, false, st)
			}
			s.markDirty(e.n)
		}
		clear(st.idle)
		st.idle = st.idle[:0]
	}
	s.touch(j)
}

// Spark's driver waits for its executors before it runs a task
// (TaskSchedulerImpl.waitBackendReady; see above).
const (
	// minRegisteredRatio is spark.scheduler.minRegisteredResourcesRatio as
	// YarnSchedulerBackend sets it when unset (0.8).
	minRegisteredRatio = 0.8
	// maxRegisteredWaitMs is spark.scheduler.maxRegisteredResourcesWaitingTime's
	// default, 30 s (CoarseGrainedSchedulerBackend).
	maxRegisteredWaitMs Ms = 30 * MsPerS
)

// idleUntilReady makes the container given to t, which st's AM has just
// taken while its driver waits for executors, an idle executor: t is
// pending again, in its place in the queue (its entry stayed while it was
// bound), as if it had not started.
func (s *Sim) idleUntilReady(st *Stage, t *Task) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	e := s.keepExecutor(t)
	st.idle = append(st.idle, e)
	t.setGated(false)
	t.State = TaskPending
	t.StartMs, t.stall, t.pollAt, t.known = -1, 0, -1, 0
	t.shrunk = 0
	if t.Attempt == 0 {
		t.FirstStartMs = -1
	}
	st.Pending++
}

// checkRegistered is, at job j's AM heartbeat, whether capped executor
// stage st's driver stops waiting for executors: its registered executors
// (those its AM has taken) reach minRegisteredRatio of MaxRunning, or
// maxRegisteredWaitMs have passed since the AM registered. Its idle
// executors then take the first partitions.
func (s *Sim) checkRegistered(j *Job, st *Stage) {
	registered := st.Held() - st.cappedBound()
	if float64(registered) < float64(st.Spec.MaxRunning)*minRegisteredRatio && s.now < j.amReadyMs+maxRegisteredWaitMs {
		return
	}
	st.waitReg = false
	s.idleTakes(st)
}
