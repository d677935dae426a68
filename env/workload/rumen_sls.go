package workload

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"yarngym/env/sim"
)

// The Scheduler Load Simulator's own JSON job format (format "sls").

// SLS format.
type slsTask struct {
	Count      *jsonInt `json:"count"`
	Host       string   `json:"container.host"`
	StartMs    *jsonInt `json:"container.start.ms"`
	EndMs      *jsonInt `json:"container.end.ms"`
	DurationMs *jsonInt `json:"duration.ms"`
	CDuration  *jsonInt `json:"container.duration.ms"`
	Type       string   `json:"container.type"`
	MemMB      *jsonInt `json:"container.memory-mb"`
	Memory     *jsonInt `json:"container.memory"`
	VCores     *jsonInt `json:"container.vcores"`
}

type slsJob struct {
	AMType   *string   `json:"am.type"`
	StartMs  *jsonInt  `json:"job.start.ms"`
	EndMs    *jsonInt  `json:"job.end.ms"`
	Queue    string    `json:"job.queue.name"`
	ID       string    `json:"job.id"`
	Count    *jsonInt  `json:"job.count"`
	Tasks    []slsTask `json:"job.tasks"`
	AMMemMB  *jsonInt  `json:"am.memory-mb"`
	AMMemory *jsonInt  `json:"am.memory"`
	AMVCores *jsonInt  `json:"am.vcores"`
}

func (p *rumenParser) slsObject(k int, raw json.RawMessage, keys map[string]json.RawMessage) error {
	if _, ok := keys["num.nodes"]; ok {
		if _, isJob := keys["job.tasks"]; !isJob {
			var h struct {
				Nodes *jsonInt `json:"num.nodes"`
			}
			if err := json.Unmarshal(raw, &h); err != nil || h.Nodes == nil || *h.Nodes < 1 || *h.Nodes > 1<<24 {
				return fmt.Errorf("%s: object %d: num.nodes must be a positive integer", p.name, k)
			}
			p.tr.Nodes = int(*h.Nodes)
			return nil
		}
	}
	var sj slsJob
	if err := json.Unmarshal(raw, &sj); err != nil {
		return fmt.Errorf("%s: object %d: %v", p.name, k, err)
	}
	id := sj.ID
	if id == "" {
		id = fmt.Sprintf("job_%d", len(p.jobs))
	}
	where := fmt.Sprintf("%s: job %d (%s)", p.name, k, id)
	if sj.AMType != nil && *sj.AMType != "mapreduce" {
		return fmt.Errorf("%s: am.type %q: only mapreduce is replayed", where, *sj.AMType)
	}
	if sj.StartMs == nil || *sj.StartMs < 0 || float64(*sj.StartMs) > traceMaxMs {
		return fmt.Errorf("%s: job.start.ms missing, negative or beyond %g s", where, float64(traceMaxSec))
	}
	if len(sj.Tasks) == 0 {
		return fmt.Errorf("%s: no job.tasks", where)
	}
	count := int64(1)
	if sj.Count != nil {
		count = max(int64(*sj.Count), 1) // SLS: at least 1
	}
	if count > 10000 {
		return fmt.Errorf("%s: job.count %d is over 10000", where, count)
	}
	res := func(mb, mem, vc *jsonInt, defMB, defVC int64, what string) (sim.Res, error) {
		r := sim.Res{VCores: defVC, MemMB: defMB}
		if mem != nil {
			r.MemMB = int64(*mem)
		}
		if mb != nil {
			r.MemMB = int64(*mb)
		}
		if vc != nil {
			r.VCores = int64(*vc)
		}
		if r.MemMB <= 0 || r.MemMB > 1<<30 || r.VCores <= 0 || r.VCores > 1<<20 {
			return r, fmt.Errorf("%s: %s request %v must be positive", where, what, r)
		}
		return r, nil
	}
	j := RumenJob{ID: id, SubmitMs: sim.Ms(*sj.StartMs), FinishMs: -1, SlowStart: 1}
	if sj.EndMs != nil && *sj.EndMs >= *sj.StartMs && float64(*sj.EndMs) <= traceMaxMs {
		j.FinishMs = sim.Ms(*sj.EndMs)
	}
	if p.o.KeepQueues {
		j.Queue = sj.Queue
	}
	if p.o.SlowStart >= 0 {
		j.SlowStart = p.o.SlowStart
	}
	defAM := sim.Res{VCores: max(p.o.AMVCores, 1), MemMB: 1024}
	if p.o.AMMemMB > 0 {
		defAM.MemMB = p.o.AMMemMB
	}
	var err error
	if j.AM, err = res(sj.AMMemMB, sj.AMMemory, sj.AMVCores, defAM.MemMB, defAM.VCores, "AM"); err != nil {
		return err
	}
	for i, t := range sj.Tasks {
		at := fmt.Sprintf("%s: task %d", where, i)
		n := int64(1)
		if t.Count != nil {
			n = int64(*t.Count)
		}
		if n < 1 || n > int64(traceMaxStageTasks) {
			return fmt.Errorf("%s: count %d must be in [1, %d]", at, n, traceMaxStageTasks)
		}
		var d int64 = -1
		switch {
		case t.CDuration != nil:
			d = int64(*t.CDuration)
		case t.DurationMs != nil:
			d = int64(*t.DurationMs)
		case t.StartMs != nil && t.EndMs != nil:
			d = int64(*t.EndMs) - int64(*t.StartMs)
		}
		if d <= 0 || float64(d) > traceMaxMs {
			return fmt.Errorf("%s: duration (container.end.ms - container.start.ms, or duration.ms) %d ms must be positive and at most %g s", at, d, float64(traceMaxSec))
		}
		typ := strings.ToLower(strings.TrimSpace(t.Type))
		if typ == "" {
			typ = "map"
		}
		if typ != "map" && typ != "reduce" {
			return fmt.Errorf("%s: container.type %q is not map or reduce", at, t.Type)
		}
		defMB, defVC := int64(1024), int64(1)
		if typ == "map" {
			defMB, defVC = cmp.Or(p.o.MapMemMB, defMB), cmp.Or(p.o.MapVCores, defVC)
		} else {
			defMB, defVC = cmp.Or(p.o.ReduceMemMB, defMB), cmp.Or(p.o.ReduceVCores, defVC)
		}
		r, err := res(t.MemMB, t.Memory, t.VCores, defMB, defVC, "container")
		if err != nil {
			return err
		}
		// The engine's stages have one request: the stage takes its first
		// task's, and a task asking for another size is refused.
		req := &j.MapReq
		list := &j.Maps
		if typ == "reduce" {
			req, list = &j.ReduceReq, &j.Reduces
		}
		if len(*list) == 0 {
			*req = r
		} else if *req != r {
			return fmt.Errorf("%s: %s request %v differs from the job's first %s's %v (one request per stage)", at, typ, r, typ, *req)
		}
		if len(*list)+int(n) > traceMaxStageTasks {
			return fmt.Errorf("%s: over %d %s tasks", at, traceMaxStageTasks, typ)
		}
		host := int32(-1)
		if typ == "map" {
			host = p.host(t.Host)
		}
		for range n {
			start := sim.Ms(-1)
			if t.StartMs != nil && *t.StartMs >= 0 && float64(*t.StartMs) <= traceMaxMs {
				start = sim.Ms(*t.StartMs)
			}
			*list = append(*list, RumenTask{DurMs: sim.Ms(d), Host: host, StartMs: start})
		}
	}
	for c := int64(0); c < count; c++ {
		cp := j
		if count > 1 {
			cp.ID = fmt.Sprintf("%s-%d", id, c) // SLS numbers copies
		}
		p.jobs = append(p.jobs, cp)
	}
	return nil
}
