package oracle

import (
	"fmt"
	"path/filepath"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/runner"
)

// Result is one scenario run on both sides.
type Result struct {
	Scenario, Policy string
	Seed             uint64
	Doc              *Document
	Yarngym          *runner.Result
	Hadoop           []JobTime
	Comparison       *Comparison
	// DriverCost is the driver's own cost line (wall clock: start-up ms,
	// containers/s), for the benchmark, never compared.
	DriverCost string
}

// ExportScenario builds the exchange document of a scenario's run at seed
// under policy ("" for the scenario's own).
func ExportScenario(sc *scenario.Scenario, policy string, seed uint64) (*Document, error) {
	cfg, err := sc.Build(seed, policy)
	if err != nil {
		return nil, err
	}
	cfg.KeepTasks = true // every task built now: Export reads their blocks' replicas
	s, err := sim.New(cfg)
	if err != nil {
		return nil, &scenario.Error{Source: sc.Origin(), Key: "workload", Reason: err.Error()}
	}
	doc, err := Export(s, sc.File.Name, seed, sc.Spec())
	if err != nil {
		return nil, &scenario.Error{Source: sc.Origin(), Key: "oracle", Reason: err.Error()}
	}
	return doc, nil
}

// Run runs the scenario in yarngym and, from the same realised workload, in
// Hadoop's own scheduler, writing both sides' results under dir
// (yarngym/, hadoop/, export.json), and compares them job by job.
func Run(sc *scenario.Scenario, policy string, seed uint64, d *Driver, dir string) (*Result, error) {
	doc, err := ExportScenario(sc, policy, seed)
	if err != nil {
		return nil, err
	}
	yg, err := runner.RunScenario(sc, runner.Options{Policy: policy, Seed: &seed, RecordTasks: true})
	if err != nil {
		return nil, err
	}
	if err := yg.WriteDir(filepath.Join(dir, "yarngym")); err != nil {
		return nil, err
	}
	hadoop, cost, err := d.Run(doc, dir)
	if err != nil {
		return nil, err
	}
	c, err := Compare(FromSim(yg.Sim), hadoop)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.File.Name, err)
	}
	return &Result{Scenario: sc.File.Name, Policy: yg.Policy, Seed: seed, Doc: doc, Yarngym: yg, Hadoop: hadoop, Comparison: c, DriverCost: cost}, nil
}
