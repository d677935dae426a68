package sim

// taskTable finds a task by its ID. IDs are handed out in the order tasks
// are built (a job's at its arrival), and a job's entries are emptied when
// its application is removed (retire): the table keeps only the IDs from
// the oldest task still held onwards, so its size follows the jobs in
// flight, not the run's length (a 1,000,000-job run builds 33M tasks; a
// slot for each would be 268 MB). With Config.KeepTasks nothing is emptied
// and the table holds every task from ID 0.
type taskTable struct {
	base  int32   // the ID of tasks[0]
	tasks []*Task // by ID - base; nil once released
	lead  int     // tasks[:lead] are all nil
}

// compactMin is the fewest leading empty slots worth moving the table for.
const compactMin = 4096

// next is the ID the next task added gets.
func (tt *taskTable) next() int32 { return tt.base + int32(len(tt.tasks)) }

// add appends t, whose ID is next().
func (tt *taskTable) add(t *Task) { tt.tasks = append(tt.tasks, t) }

// at returns the task of ID id, or nil if it is released or unknown.
func (tt *taskTable) at(id int32) *Task {
	i := int(id) - int(tt.base)
	if i < 0 || i >= len(tt.tasks) {
		return nil
	}
	return tt.tasks[i]
}

// release empties id's slot. Once at least half the table (and compactMin
// slots) before the first task held is empty, the tasks held move down to
// the front, into a smaller array when the old one is mostly empty: each
// move costs at most what the releases since the last one did.
func (tt *taskTable) release(id int32) {
	i := int(id) - int(tt.base)
	if i < 0 || i >= len(tt.tasks) {
		return
	}
	tt.tasks[i] = nil
	for tt.lead < len(tt.tasks) && tt.tasks[tt.lead] == nil {
		tt.lead++
	}
	if tt.lead < compactMin || tt.lead < len(tt.tasks)/2 {
		return
	}
	held := tt.tasks[tt.lead:]
	if cap(tt.tasks) > 4*len(held)+compactMin {
		tt.tasks = append(make([]*Task, 0, 2*len(held)+compactMin), held...)
	} else {
		n := copy(tt.tasks, held)
		clear(tt.tasks[n:])
		tt.tasks = tt.tasks[:n]
	}
	tt.base += int32(tt.lead)
	tt.lead = 0
}

// all returns every task from ID 0 (valid only while nothing is released:
// Config.KeepTasks).
func (tt *taskTable) all() []*Task { return tt.tasks }
