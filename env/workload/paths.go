package workload

// PathPtr lets a scenario resolve the trace path (${traces}, or relative to
// the scenario file) before the loader opens it.
func (o *SWIMOptions) PathPtr() *string { return &o.Path }

// PathPtr: see SWIMOptions.PathPtr.
func (o *AlibabaOptions) PathPtr() *string { return &o.Path }
