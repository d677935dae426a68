package opera

import (
	"fmt"
	"math"

	"yarngym/env/sim"
)

// Task classes.
const (
	Short = 0
	Long  = 1
)

// levels is the number of hierarchical features of Eq. 1.
const levels = 4

// laplace is the pseudo-count added to every naive-Bayes count so that a
// feature value not seen with one class (or at all) does not zero the whole
// product (add-one smoothing, the usual estimator for naive Bayes in the
// paper's reference [14]). Assumed: the paper does not say how it treats
// zero counts; with smoothing, a task whose lower levels ({F}, {F,A}) are
// known is classified from them, which is the point of the hierarchy
// (Sec. III-B: "derive an estimation based on the information from different
// processing stages, applications, and frameworks").
const laplace = 1.0

// Classifier is OPERA's task classifier over the hierarchical features
//
//	F_t = { {F}, {F,A}, {F,A,S}, {F,A,S,P,D} }                    (Eq. 1)
//
// (framework, application, stage, job progress, demand), with
//
//	P(C|F_t) ∝ P(C) · Π_i P(F_t^i | C),  C ∈ {short, long}        (Eq. 2-3)
//
// learned online from finished tasks: a finished attempt is short if it ran
// for less than CutoffS. A task is called short when its posterior
// P(short|F_t) exceeds PosteriorCutoff (0.5: the class with the higher
// posterior wins, ties go long). A task none of whose features was ever seen
// ("an application with all new features") is conservatively long.
//
// The posterior comes from the paper's naive Bayes (Model 0, the default)
// or from a logistic regression over the same features trained online in
// gorgonia (Model 1, logistic.go); both learn from the same finished tasks.
//
// It keeps the prediction made when each attempt launched and, when the
// attempt finishes, compares it with the observed class (Table III).
//
// Reference: OPERA Sec. III-B, Eq. 1-3; Table III.
type Classifier struct {
	// CutoffS is the duration threshold in seconds (paper: 1 minute).
	CutoffS float64
	// PosteriorCutoff is the posterior above which a task is short.
	PosteriorCutoff float64
	// Buckets is the number of job-progress buckets of the P_t feature.
	Buckets float64
	// Model selects the posterior: ModelBayes or ModelLogistic.
	Model float64

	bayes    *NaiveBayes
	logistic *Logistic
	feats    map[*sim.Stage]*stageFeatures

	// At launch, per task ID: the prediction (0 none, 1 short, 2 long) and
	// the progress bucket its features were taken with.
	pred   []int8
	bucket []int8

	// Confusion[actual][predicted] counts finished attempts.
	Confusion [2][2]int64
}

type stageFeatures struct {
	low     [levels - 1]string // {F}, {F,A}, {F,A,S}
	prefix  string             // F|A|S| of the full feature
	demand  string
	buckets []string // the full {F,A,S,P,D} feature per progress bucket
}

// The posterior models (parameter classifier).
const (
	ModelBayes    = 0 // naive Bayes, Eq. 2-3 (the paper)
	ModelLogistic = 1 // logistic regression, trained online (logistic.go)
)

// posterior is a model of P(short | F_t) learned online from finished tasks.
type posterior interface {
	// PosteriorShort returns P(short | f) and whether any of f was seen.
	PosteriorShort(f [levels]string) (p float64, known bool)
	// Learn adds one finished task of class k (Short or Long).
	Learn(f [levels]string, k int)
}

// NewClassifier returns an empty classifier with the paper's defaults.
func NewClassifier() *Classifier {
	return &Classifier{CutoffS: 60, PosteriorCutoff: 0.5, Buckets: 4, bayes: NewNaiveBayes(), feats: map[*sim.Stage]*stageFeatures{}}
}

// model returns the selected posterior model (the logistic one is built on
// first use: a run with the paper's naive Bayes builds no graph).
func (c *Classifier) model() posterior {
	if int(c.Model) == ModelLogistic {
		if c.logistic == nil {
			c.logistic = NewLogistic()
		}
		return c.logistic
	}
	return c.bayes
}

// Progress returns the fraction of job j's tasks (AM excluded) finished.
func Progress(j *sim.Job) float64 {
	done, total := 0, 0
	for _, st := range j.Stages {
		done += st.Done
		total += len(st.Tasks)
	}
	if total == 0 {
		return 0
	}
	return float64(done) / float64(total)
}

func (c *Classifier) progressBucket(j *sim.Job) int {
	b := max(int(c.Buckets), 1)
	k := int(Progress(j) * float64(b))
	return min(k, b-1)
}

// Features returns task t's hierarchical features (Eq. 1) with job progress
// in bucket b: framework, application, stage name, progress bucket, demand.
func (c *Classifier) Features(t *sim.Task, b int) [levels]string {
	sf := c.stage(t.Stage)
	for len(sf.buckets) <= b {
		sf.buckets = append(sf.buckets, fmt.Sprintf("%sp%d|%s", sf.prefix, len(sf.buckets), sf.demand))
	}
	return [levels]string{sf.low[0], sf.low[1], sf.low[2], sf.buckets[b]}
}

func (c *Classifier) stage(st *sim.Stage) *stageFeatures {
	if sf, ok := c.feats[st]; ok {
		return sf
	}
	j := st.Tasks[0].Job.Spec
	f, a, s := j.Framework, j.App, st.Spec.Name
	sf := &stageFeatures{low: [levels - 1]string{f, f + "|" + a, f + "|" + a + "|" + s},
		prefix: f + "|" + a + "|" + s + "|", demand: fmt.Sprintf("%dx%d", st.Spec.Req.VCores, st.Spec.Req.MemMB)}
	c.feats[st] = sf
	return sf
}

// PosteriorShort returns P(short | F) for features f from the selected
// model and whether any of f was ever observed.
func (c *Classifier) PosteriorShort(f [levels]string) (p float64, known bool) {
	return c.model().PosteriorShort(f)
}

// NaiveBayes is the paper's posterior: P(C|F_t) ∝ P(C) · Π_i P(F_t^i | C)
// with add-one smoothing (Eq. 2-3).
type NaiveBayes struct {
	n      [2]float64                     // finished tasks per class
	counts [levels]map[string]*[2]float64 // feature value -> per-class count
}

// NewNaiveBayes returns an empty naive Bayes model.
func NewNaiveBayes() *NaiveBayes {
	nb := &NaiveBayes{}
	for i := range nb.counts {
		nb.counts[i] = map[string]*[2]float64{}
	}
	return nb
}

// PosteriorShort implements posterior (Eq. 2-3, normalised over the two
// classes).
func (c *NaiveBayes) PosteriorShort(f [levels]string) (p float64, known bool) {
	total := c.n[Short] + c.n[Long]
	if total == 0 {
		return 0, false
	}
	var lp [2]float64
	for k := range lp {
		lp[k] = math.Log((c.n[k] + laplace) / (total + 2*laplace))
	}
	for i, v := range f {
		cnt := c.counts[i][v]
		if cnt != nil {
			known = true
		}
		// One slot per value seen so far plus one for an unseen value.
		vals := float64(len(c.counts[i]) + 1)
		for k := range lp {
			x := 0.0
			if cnt != nil {
				x = cnt[k]
			}
			lp[k] += math.Log((x + laplace) / (c.n[k] + laplace*vals))
		}
	}
	return 1 / (1 + math.Exp(lp[Long]-lp[Short])), known
}

// Learn implements posterior.
func (c *NaiveBayes) Learn(f [levels]string, k int) {
	c.n[k]++
	for i, v := range f {
		cnt := c.counts[i][v]
		if cnt == nil {
			cnt = &[2]float64{}
			c.counts[i][v] = cnt
		}
		cnt[k]++
	}
}

// Classify returns Short or Long for features f.
func (c *Classifier) Classify(f [levels]string) int {
	p, known := c.PosteriorShort(f)
	if !known || p <= c.PosteriorCutoff {
		return Long
	}
	return Short
}

// ClassifyTask classifies pending task t with its job's progress now.
func (c *Classifier) ClassifyTask(t *sim.Task) int {
	if t.Stage == nil {
		return Long // an AM holds its container for the whole job
	}
	return c.Classify(c.Features(t, c.progressBucket(t.Job)))
}

// Learn adds one finished task with features f and run time runMs to the
// selected model.
func (c *Classifier) Learn(f [levels]string, runMs sim.Ms) {
	c.model().Learn(f, c.ClassOf(runMs))
}

// ClassOf is the observed class of an attempt that ran for runMs.
func (c *Classifier) ClassOf(runMs sim.Ms) int {
	if float64(runMs) < c.CutoffS*1000 {
		return Short
	}
	return Long
}

// Launched records the prediction made for task t as it starts (its class
// decides whether it may run opportunistically; Table III scores it).
func (c *Classifier) Launched(h sim.Handle, t *sim.Task) int {
	if t.Stage == nil {
		return Long
	}
	c.grow(int(h.TaskIDs()))
	b := c.progressBucket(t.Job)
	k := c.Classify(c.Features(t, b))
	c.pred[t.ID] = int8(k + 1)
	c.bucket[t.ID] = int8(b)
	return k
}

// Rebound moves the classes recorded at launch from the tasks from[i] to
// to[i] (sim.Rebinder).
func (c *Classifier) Rebound(h sim.Handle, from, to []*sim.Task) {
	c.grow(int(h.TaskIDs()))
	pred, bucket := make([]int8, len(from)), make([]int8, len(from))
	for i, t := range from {
		if t != nil {
			pred[i], bucket[i] = c.pred[t.ID], c.bucket[t.ID]
			c.pred[t.ID], c.bucket[t.ID] = 0, 0
		}
	}
	for i, t := range to {
		switch {
		case t == nil:
		case from[i] == nil:
			c.Launched(h, t) // it starts in a container given beyond the maps
		default:
			c.pred[t.ID], c.bucket[t.ID] = pred[i], bucket[i]
		}
	}
}

// PredictedAtLaunch returns the class predicted for task id's running
// attempt when it launched, and false if none was recorded.
func (c *Classifier) PredictedAtLaunch(id int32) (int, bool) {
	if int(id) >= len(c.pred) || c.pred[id] == 0 {
		return 0, false
	}
	return int(c.pred[id]) - 1, true
}

func (c *Classifier) grow(n int) {
	if len(c.pred) < n {
		c.pred = append(c.pred, make([]int8, n-len(c.pred))...)
		c.bucket = append(c.bucket, make([]int8, n-len(c.bucket))...)
	}
}

// TaskEnded implements sim.TaskListener: a finished attempt is scored
// against its launch-time prediction and learned from, with the features it
// was classified with; a killed attempt is forgotten (its run time is not
// observed).
func (c *Classifier) TaskEnded(h sim.Handle, t *sim.Task, o sim.Outcome) {
	if t.Stage == nil {
		return
	}
	c.grow(int(h.TaskIDs()))
	pred, b := c.pred[t.ID], int(c.bucket[t.ID])
	c.pred[t.ID] = 0
	if o != sim.Finished {
		return
	}
	run := t.FinishMs - t.StartMs
	if pred != 0 {
		c.Confusion[c.ClassOf(run)][pred-1]++
	} else {
		b = c.progressBucket(t.Job)
	}
	c.Learn(c.Features(t, b), run)
}

// Accuracy returns the share of actual-class tasks predicted as that class
// (Table III "Pred. Accuracy"), NaN-free: 0 when none was seen.
func (c *Classifier) Accuracy(class int) float64 {
	n := c.Confusion[class][Short] + c.Confusion[class][Long]
	if n == 0 {
		return 0
	}
	return float64(c.Confusion[class][class]) / float64(n)
}
