package autoadmin

import "yarngym/env/sim"

// NodeInfo is what the RIC records for one node: the number of AM and task
// containers on it and the vCores they hold (their requests).
type NodeInfo struct {
	NAMC, NTC         int   // N_AMC_Ni, N_TC_Ni
	TotalAMC, TotalTC int64 // Total_AMC_Ni, Total_TC_Ni (vCores)
}

// RIC is AutoAdmin's Resource Information Collector: on every NodeUpdate
// (the node's heartbeat) it records the node's AM and task containers and
// the resources they hold (Map_AMC and Map_TC), and updates the cluster
// totals the averages Avg_AMC_R and Avg_TC_R are computed from. Only vCores
// are recorded: "we only consider the cpu resource".
//
// Between a node's heartbeats its record is what the node reported last, as
// in the paper, where the map is refreshed by heartbeat messages.
//
// Reference: AutoAdmin Sec. 3.1, Alg. 1.
type RIC struct {
	nodes []NodeInfo
	sum   NodeInfo // sums over the nodes' records
	// OnUpdate, if set, is called after every update (RRP recomputes R_R).
	OnUpdate func(h sim.Handle)
}

// Monitor implements sim.NodeMonitor: it is the NodeUpdate of Alg. 1.
func (r *RIC) Monitor(h sim.Handle, n *sim.Node) {
	r.Record(n)
	if r.OnUpdate != nil {
		r.OnUpdate(h)
	}
}

// Record refreshes node n's entry (Alg. 1 lines 2-3) and the totals (line 4).
func (r *RIC) Record(n *sim.Node) {
	for int(n.ID) >= len(r.nodes) {
		r.nodes = append(r.nodes, NodeInfo{})
	}
	var in NodeInfo
	for _, t := range n.Containers {
		if t.Kind == sim.KindAM {
			in.NAMC++
			in.TotalAMC += t.Req.VCores
		} else {
			in.NTC++
			in.TotalTC += t.Req.VCores
		}
	}
	old := r.nodes[n.ID]
	r.nodes[n.ID] = in
	r.sum.NAMC += in.NAMC - old.NAMC
	r.sum.NTC += in.NTC - old.NTC
	r.sum.TotalAMC += in.TotalAMC - old.TotalAMC
	r.sum.TotalTC += in.TotalTC - old.TotalTC
}

// Node returns node id's last record.
func (r *RIC) Node(id int32) NodeInfo {
	if int(id) < len(r.nodes) {
		return r.nodes[id]
	}
	return NodeInfo{}
}

// Totals returns the cluster-wide sums of the nodes' records.
func (r *RIC) Totals() NodeInfo { return r.sum }

// AvgAMC is Avg_AMC_R, the mean vCores of the running AMs (0 if none).
func (r *RIC) AvgAMC() float64 { return avg(r.sum.TotalAMC, r.sum.NAMC) }

// AvgTC is Avg_TC_R, the mean vCores of the running task containers (0 if
// none).
func (r *RIC) AvgTC() float64 { return avg(r.sum.TotalTC, r.sum.NTC) }

func avg(total int64, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(total) / float64(n)
}
