// Package registry is the one shape of yarngym's registries: policies,
// workload generators, tasks, learners and built-in scenarios are each
// registered by name, with a one-line doc, in their own package's Registry;
// a duplicate or empty name is refused when it is registered, and a name
// looked up that is not there is answered with the nearest registered one
// and the valid ones. It imports nothing of yarngym: every layer may use it.
package registry

import (
	"fmt"
	"sort"
	"strings"
)

// Entry is one registered thing.
type Entry[T any] struct {
	Name  string
	Doc   string
	Value T
}

// Registry holds the entries of one kind of thing ("policy", "task", ...)
// in registration order.
type Registry[T any] struct {
	kind    string
	filler  string
	entries []Entry[T]
	index   map[string]int
}

// New returns an empty registry of things of the given kind (used in
// messages: "unknown policy").
func New[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, index: map[string]int{}}
}

// FilledBy names the package whose import fills the registry, for the
// error a lookup in a registry still empty gives (a program that forgot
// the import).
func (r *Registry[T]) FilledBy(importPath string) *Registry[T] {
	r.filler = importPath
	return r
}

// Add registers v under name. A name must be non-empty, without spaces,
// and not yet registered.
func (r *Registry[T]) Add(name, doc string, v T) error {
	switch {
	case name == "" || strings.ContainsAny(name, " \t\n"):
		return fmt.Errorf("%s %q: a name is non-empty and has no spaces", r.kind, name)
	case r.Has(name):
		return fmt.Errorf("%s %q is registered twice", r.kind, name)
	}
	r.index[name] = len(r.entries)
	r.entries = append(r.entries, Entry[T]{Name: name, Doc: doc, Value: v})
	return nil
}

// MustAdd is Add for registrations made by the program itself (a
// package's init or its literal table): a duplicate is a programming error.
func (r *Registry[T]) MustAdd(name, doc string, v T) {
	if err := r.Add(name, doc, v); err != nil {
		panic(err)
	}
}

// Has reports whether name is registered.
func (r *Registry[T]) Has(name string) bool {
	_, ok := r.index[name]
	return ok
}

// Get returns the entry registered under name, or an error naming the
// nearest registered name and the valid ones.
func (r *Registry[T]) Get(name string) (Entry[T], error) {
	if i, ok := r.index[name]; ok {
		return r.entries[i], nil
	}
	return Entry[T]{}, r.Unknown(name)
}

// Unknown is the error for a name that is not registered.
func (r *Registry[T]) Unknown(name string) error {
	if len(r.entries) == 0 && r.filler != "" {
		return fmt.Errorf("unknown %s %q: none is registered (import _ %q)", r.kind, name, r.filler)
	}
	names := r.Names()
	return fmt.Errorf("unknown %s %q%s (known: %s)", r.kind, name, DidYouMean(name, names), strings.Join(names, ", "))
}

// Ordered returns the entries in registration order.
func (r *Registry[T]) Ordered() []Entry[T] { return append([]Entry[T](nil), r.entries...) }

// All returns the entries sorted by name.
func (r *Registry[T]) All() []Entry[T] {
	out := r.Ordered()
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Names returns the registered names, sorted.
func (r *Registry[T]) Names() []string {
	out := make([]string, len(r.entries))
	for i, e := range r.All() {
		out[i] = e.Name
	}
	return out
}

// Kind is what the registry holds ("policy").
func (r *Registry[T]) Kind() string { return r.kind }
