package oracle

import (
	"fmt"
	"math"
	"strings"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// hadoopConf maps the run's stock scheduler and its parameters to Hadoop's
// configuration keys (and, for Fair, the allocation file). Keys yarngym does
// not model keep Hadoop's defaults: the driver sets none of them.
func hadoopConf(s *sim.Sim, sp base.Spec) (conf map[string]string, alloc string, err error) {
	p := s.Policy()
	param := func(name string) (float64, error) {
		q := p.Params.Get(name)
		if q == nil {
			return 0, fmt.Errorf("policy %s has no parameter %s", p.Name, name)
		}
		return *q.Value, nil
	}
	conf = map[string]string{}
	switch p.Name {
	case "fair":
		share, err := param("max_am_share")
		if err != nil {
			return nil, "", err
		}
		delay, err := param("locality_delay")
		if err != nil {
			return nil, "", err
		}
		if delay > 0 {
			// yarngym counts missed opportunities; FairScheduler takes
			// them as a share of the cluster's nodes, for node-local and
			// then again for rack-local (FSAppAttempt.getAllowedLocalityLevel).
			frac := fmtFloat(delay / float64(len(s.Nodes)))
			conf["yarn.scheduler.fair.locality.threshold.node"] = frac
			conf["yarn.scheduler.fair.locality.threshold.rack"] = frac
		}
		return conf, allocationFile(share, sp), nil
	case "capacity":
		amPercent, err := param("max_am_percent")
		if err != nil {
			return nil, "", err
		}
		delay, err := param("locality_delay")
		if err != nil {
			return nil, "", err
		}
		if amPercent < 0 {
			amPercent = 1 // yarngym's "off": every queue's AMs may take it all
		}
		ulf, err := param("user_limit_factor")
		if err != nil {
			return nil, "", err
		}
		const pre = "yarn.scheduler.capacity."
		conf[pre+"maximum-am-resource-percent"] = fmtFloat(amPercent)
		if calc, err := param("resource_calculator"); err != nil {
			return nil, "", err
		} else if calc != 0 {
			conf[pre+"resource-calculator"] = "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"
		}
		if on, err := param("preemption"); err != nil {
			return nil, "", err
		} else if on != 0 {
			conf["yarn.resourcemanager.scheduler.monitor.enable"] = "true"
			const mon = "yarn.resourcemanager.monitor.capacity.preemption."
			for _, k := range [][2]string{{"preemption_interval_ms", "monitoring_interval"}, {"preemption_max_wait_before_kill_ms", "max_wait_before_kill"},
				{"preemption_total_per_round", "total_preemption_per_round"}, {"preemption_max_ignored_over_capacity", "max_ignored_over_capacity"},
				{"preemption_natural_termination_factor", "natural_termination_factor"}} {
				v, err := param(k[0])
				if err != nil {
					return nil, "", err
				}
				conf[mon+k[1]] = fmtFloat(v)
			}
		}
		conf[pre+"node-locality-delay"] = fmtFloat(delay)
		queues := sp.Queues
		if len(queues) == 0 {
			queues = []base.Queue{{Name: base.DefaultQueue, Capacity: 1, MaxCapacity: 1}}
		}
		// A queue PARENT.CHILD is root.PARENT.CHILD, listed in
		// root.PARENT.queues; capacities are relative to the parent's, as
		// the scenario gives them.
		children := map[string][]string{}
		for _, q := range queues {
			parent, leaf := "root", q.Name
			if i := strings.LastIndexByte(q.Name, '.'); i >= 0 {
				parent, leaf = "root."+q.Name[:i], q.Name[i+1:]
			}
			children[parent] = append(children[parent], leaf)
			mc := q.MaxCapacity
			if mc == 0 {
				mc = 1
			}
			conf[pre+"root."+q.Name+".capacity"] = fmtFloat(100 * q.Capacity)
			conf[pre+"root."+q.Name+".maximum-capacity"] = fmtFloat(100 * mc)
		}
		for parent, names := range children {
			conf[pre+parent+".queues"] = strings.Join(names, ",")
		}
		// yarngym's user-limit-factor is every leaf queue's.
		for _, q := range queues {
			if _, parent := children["root."+q.Name]; ulf != 1 && !parent {
				conf[pre+"root."+q.Name+".user-limit-factor"] = fmtFloat(ulf)
			}
		}
		return conf, "", nil
	}
	return nil, "", fmt.Errorf("policy %q has no Hadoop counterpart: the oracle drives Hadoop's FairScheduler (fair) and CapacityScheduler (capacity)", p.Name)
}

// allocationFile is the fair-scheduler.xml of a Fair run: the AM share and
// each declared queue's weight, minResources, maxResources and
// maxRunningApps (resources in the new style, "memory-mb=X, vcores=Y", a
// component left out being 0 for a minimum and unbounded for a maximum:
// FairSchedulerConfiguration.parseNewStyleResource).
func allocationFile(maxAMShare float64, sp base.Spec) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<allocations>\n")
	fmt.Fprintf(&b, "  <queueMaxAMShareDefault>%s</queueMaxAMShareDefault>\n", fmtFloat(maxAMShare))
	// A queue PARENT.CHILD is nested in PARENT's element; a parent the
	// spec does not declare gets an element with the defaults. Queues keep
	// the order of their first mention.
	declared := map[string]base.Queue{}
	var order []string
	seen := map[string]bool{}
	for _, q := range sp.Queues {
		declared[q.Name] = q
		parts := strings.Split(q.Name, ".")
		for i := range parts {
			if name := strings.Join(parts[:i+1], "."); !seen[name] {
				seen[name] = true
				order = append(order, name)
			}
		}
	}
	var write func(parent string, indent string)
	write = func(parent, indent string) {
		for _, name := range order {
			if i := strings.LastIndexByte(name, '.'); (i < 0 && parent != "") || (i >= 0 && name[:i] != parent) {
				continue
			}
			q := declared[name]
			w := q.Weight
			if w <= 0 {
				w = 1
			}
			fmt.Fprintf(&b, "%s<queue name=\"%s\">\n%s  <weight>%s</weight>\n", indent, name[strings.LastIndexByte(name, '.')+1:], indent, fmtFloat(w))
			if r := newStyle(q.MinMemMB, q.MinVCores); r != "" {
				fmt.Fprintf(&b, "%s  <minResources>%s</minResources>\n", indent, r)
			}
			if r := maxStyle(q.MaxMemMB, q.MaxVCores); r != "" {
				fmt.Fprintf(&b, "%s  <maxResources>%s</maxResources>\n", indent, r)
			}
			if q.MaxRunningApps > 0 {
				fmt.Fprintf(&b, "%s  <maxRunningApps>%d</maxRunningApps>\n", indent, q.MaxRunningApps)
			}
			write(name, indent+"  ")
			fmt.Fprintf(&b, "%s</queue>\n", indent)
		}
	}
	write("", "  ")
	b.WriteString("</allocations>\n")
	return b.String()
}

// newStyle writes a resource as fair-scheduler.xml's new style, leaving out
// components that are 0 ("" when both are).
func newStyle(memMB, vcores int64) string {
	var parts []string
	if memMB > 0 {
		parts = append(parts, fmt.Sprintf("memory-mb=%d", memMB))
	}
	if vcores > 0 {
		parts = append(parts, fmt.Sprintf("vcores=%d", vcores))
	}
	return strings.Join(parts, ", ")
}

// maxStyle writes a maxResources. A component left out would be
// Long.MAX_VALUE, and Hadoop 3.3.6 turns that into vCores of -1
// (ResourceUtils.createResourceWithSameValue takes the long's intValue()),
// so that nothing fits the queue again: an unset vCores maximum is written
// as Integer.MAX_VALUE, what yarngym means by it.
func maxStyle(memMB, vcores int64) string {
	if memMB <= 0 && vcores <= 0 {
		return ""
	}
	if vcores <= 0 {
		vcores = math.MaxInt32
	}
	return newStyle(memMB, vcores)
}
