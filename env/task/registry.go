package task

// registry lists the tasks, one constructor each, in listing order. A task
// is defined in its paper's file; adding one is one line here.
var registry = []func() *Task{
	autoAdmin66Fair,
	autoAdminScale,
	operaRhoCutoff,
	dressThetaDelta,
	rasCycle,
}
