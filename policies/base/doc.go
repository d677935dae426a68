// Package base holds the building blocks shared by yarngym's policies: the
// specification a policy factory receives (queues), and YARN's allocation
// loop on a node heartbeat (app ordering, per-app limits, delay scheduling
// for locality, node reservation), which FIFO, Fair and Capacity configure
// and the papers' mechanisms extend.
package base
