package learn

import (
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestGorgoniaStarts: gorgonia loads (the assume-no-moving-gc pin) and a
// tiny graph with weights given by us (not gorgonia's clock-seeded
// initialisers) computes the right value and gradient.
func TestGorgoniaStarts(t *testing.T) {
	g := gorgonia.NewGraph()
	w := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(1, 2), gorgonia.WithName("w"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(1, 2), tensor.WithBacking([]float64{2, -1}))))
	x := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 1), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(2, 1), tensor.WithBacking([]float64{3, 4}))))
	y := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.Mul(w, x))))
	if _, err := gorgonia.Grad(y, w); err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	if got := y.Value().Data().(float64); got != 2 {
		t.Fatalf("w.x = %v, want 2", got)
	}
	grad, err := w.Grad()
	if err != nil {
		t.Fatal(err)
	}
	if d := grad.Data().([]float64); d[0] != 3 || d[1] != 4 {
		t.Fatalf("d(w.x)/dw = %v, want [3 4]", d)
	}
}
