package opera

import (
	"fmt"
	"hash/fnv"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The logistic model's settings.
const (
	// logisticBuckets is the number of hashed one-hot slots per feature
	// level: a feature value sets slot hash(value) mod logisticBuckets of its
	// level (the hashing trick; the paper's features take tens of values,
	// so collisions are rare).
	logisticBuckets = 128
	// logisticLR is the SGD step size of each online update.
	logisticLR = 0.2
)

// Logistic is a logistic regression over OPERA's hierarchical task features
// (Sec. III-B, Eq. 1), an alternative to the paper's naive Bayes posterior
// (parameter classifier = 1):
//
//	P(short | F_t) = sigmoid(w · x(F_t) + b)
//
// where x(F_t) one-hot encodes each of the four feature levels into its own
// hashed slots. It learns online, as the naive Bayes does: every finished
// task is one SGD step on the binary cross-entropy of its observed class,
// taken by a gorgonia graph (weights start at zero, so nothing is drawn at
// random). Unlike naive Bayes it does not assume the levels independent
// given the class, which matters here because they are nested (a stage
// determines its application and framework).
type Logistic struct {
	d    int
	w    []float64 // a view of the graph's weight values, for predicting
	b    []float64
	seen [levels]map[string]bool

	g      *G.ExprGraph
	x, y   *G.Node
	wn, bn *G.Node
	vm     G.VM
	solver G.Solver
	xb, yb []float64 // input buffers bound to x and y
	idx    [levels]int
}

// NewLogistic builds the model and its training graph.
func NewLogistic() *Logistic {
	d := levels * logisticBuckets
	l := &Logistic{d: d, g: G.NewGraph(), xb: make([]float64, d), yb: make([]float64, 1)}
	for i := range l.seen {
		l.seen[i] = map[string]bool{}
	}
	l.wn = G.NewMatrix(l.g, tensor.Float64, G.WithShape(d, 1), G.WithName("w"),
		G.WithValue(tensor.New(tensor.WithShape(d, 1), tensor.WithBacking(make([]float64, d)))))
	l.bn = G.NewMatrix(l.g, tensor.Float64, G.WithShape(1, 1), G.WithName("b"),
		G.WithValue(tensor.New(tensor.WithShape(1, 1), tensor.WithBacking(make([]float64, 1)))))
	l.x = G.NewMatrix(l.g, tensor.Float64, G.WithShape(1, d), G.WithName("x"),
		G.WithValue(tensor.New(tensor.WithShape(1, d), tensor.WithBacking(l.xb))))
	l.y = G.NewMatrix(l.g, tensor.Float64, G.WithShape(1, 1), G.WithName("y"),
		G.WithValue(tensor.New(tensor.WithShape(1, 1), tensor.WithBacking(l.yb))))
	p := G.Must(G.Sigmoid(G.Must(G.Add(G.Must(G.Mul(l.x, l.wn)), l.bn))))
	loss := G.Must(G.Mean(G.Must(G.BinaryXent(p, l.y))))
	if _, err := G.Grad(loss, l.wn, l.bn); err != nil {
		panic(fmt.Sprintf("opera: logistic gradient: %v", err)) // a bug in the graph above
	}
	l.vm = G.NewTapeMachine(l.g, G.BindDualValues(l.wn, l.bn))
	l.solver = G.NewVanillaSolver(G.WithLearnRate(logisticLR))
	l.w = l.wn.Value().Data().([]float64)
	l.b = l.bn.Value().Data().([]float64)
	return l
}

// slots sets l.idx to f's one-hot slots.
func (l *Logistic) slots(f [levels]string) {
	for i, v := range f {
		h := fnv.New64a()
		h.Write([]byte(v))
		l.idx[i] = i*logisticBuckets + int(h.Sum64()%logisticBuckets)
	}
}

// PosteriorShort implements posterior: sigmoid(w · x + b), computed in Go
// from the graph's current weights.
func (l *Logistic) PosteriorShort(f [levels]string) (p float64, known bool) {
	for i, v := range f {
		known = known || l.seen[i][v]
	}
	l.slots(f)
	z := l.b[0]
	for _, k := range l.idx {
		z += l.w[k]
	}
	return 1 / (1 + math.Exp(-z)), known
}

// Learn implements posterior: one SGD step of the gorgonia graph on the
// task's binary cross-entropy (label 1 for short).
func (l *Logistic) Learn(f [levels]string, k int) {
	for i, v := range f {
		l.seen[i][v] = true
	}
	l.slots(f)
	for _, j := range l.idx {
		l.xb[j] = 1
	}
	l.yb[0] = 0
	if k == Short {
		l.yb[0] = 1
	}
	err := l.vm.RunAll()
	if err == nil {
		err = l.solver.Step(G.NodesToValueGrads(G.Nodes{l.wn, l.bn}))
	}
	l.vm.Reset()
	for _, j := range l.idx {
		l.xb[j] = 0
	}
	if err != nil {
		panic(fmt.Sprintf("opera: logistic update: %v", err)) // shapes are fixed: a bug
	}
	// The solver may replace the value tensors' backing: read them again.
	l.w = l.wn.Value().Data().([]float64)
	l.b = l.bn.Value().Data().([]float64)
}
