package registry

import (
	"slices"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	r := New[int]("widget")
	for _, c := range []struct {
		name string
		want string // "" ok, else part of the error
	}{{"beta", ""}, {"alpha", ""}, {"beta", `widget "beta" is registered twice`}, {"", "non-empty"}, {"a b", "no spaces"}} {
		err := r.Add(c.name, "doc of "+c.name, len(c.name))
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Add(%q): %v, want %q", c.name, err, c.want)
		}
	}
	if got := r.Names(); !slices.Equal(got, []string{"alpha", "beta"}) {
		t.Errorf("Names() = %v", got)
	}
	if o := r.Ordered(); len(o) != 2 || o[0].Name != "beta" || o[1].Name != "alpha" {
		t.Errorf("Ordered() = %v, want registration order", o)
	}
	e, err := r.Get("alpha")
	if err != nil || e.Value != 5 || e.Doc != "doc of alpha" {
		t.Errorf("Get(alpha) = %+v, %v", e, err)
	}
	_, err = r.Get("alpah")
	if err == nil || err.Error() != `unknown widget "alpah"; did you mean alpha? (known: alpha, beta)` {
		t.Errorf("Get(alpah): %v", err)
	}
	empty := New[int]("policy").FilledBy("yarngym/policies")
	if _, err := empty.Get("fair"); err == nil || err.Error() != `unknown policy "fair": none is registered (import _ "yarngym/policies")` {
		t.Errorf("an empty registry: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustAdd of a duplicate did not panic")
		}
	}()
	r.MustAdd("alpha", "", 0)
}
