package scenario

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"yarngym/env/workload"
	"yarngym/registry"
)

//go:embed builtin/*.toml
var builtinFS embed.FS

// Scenario is a loaded, validated scenario: Build turns it into runs.
type Scenario struct {
	File File
	// Source is the file's path, or "builtin:NAME".
	Source string
	// Dir is the directory relative paths in the file are resolved against.
	Dir string
	// Options is the workload generator's decoded options (nil without one).
	Options any
	// ParamSets are policy parameter overrides (from --set NAME=VALUE),
	// applied on Build after the file's [policy.params].
	ParamSets map[string]float64
	// Warnings are things to tell the user that do not stop the run (a
	// run estimated to need a lot of memory).
	Warnings []string

	// source draws the generator's jobs per seed, compiled once by Parse
	// (a trace is read then, not on every Build).
	source workload.Source
	// origin names the scenario in errors: Source, with the --set
	// overrides that patched it.
	origin string
	warn   func(string)
}

// Origin names the scenario in error messages: its Source, followed by
// "with --set ..." when dotted --set overrides patched the file, so that an
// error a --set value causes is not blamed on the file alone.
func (sc *Scenario) Origin() string {
	if sc.origin != "" {
		return sc.origin
	}
	return sc.Source
}

// ControllerModel returns the path of the trained controller the scenario
// names ([controller] model, relative to the scenario's folder), or "".
func (sc *Scenario) ControllerModel() string {
	m := sc.File.Controller.Model
	if m == "" || filepath.IsAbs(m) {
		return m
	}
	return filepath.Join(sc.Dir, m)
}

// Error is a scenario error: which file, which key, why.
type Error struct {
	Source string
	Key    string
	Reason string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %s", e.Source, e.Reason)
	}
	return fmt.Sprintf("%s: %s: %s", e.Source, e.Key, e.Reason)
}

// builtins is the registry of built-in scenarios: each file of builtin/,
// by its name, its value the file's contents (its description is read by
// Describe, not here: registering costs no TOML decoding).
var builtins = func() *registry.Registry[[]byte] {
	r := registry.New[[]byte]("built-in scenario")
	ents, _ := builtinFS.ReadDir("builtin")
	for _, e := range ents {
		data, _ := builtinFS.ReadFile("builtin/" + e.Name())
		r.MustAdd(strings.TrimSuffix(e.Name(), ".toml"), "", data)
	}
	return r
}()

// Builtins returns the names of the built-in scenarios, sorted.
func Builtins() []string { return builtins.Names() }

// IsBuiltin reports whether name is a built-in scenario.
func IsBuiltin(name string) bool {
	_, err := builtins.Get(name)
	return err == nil
}

// BuiltinSource returns a built-in scenario's TOML file as it ships.
func BuiltinSource(name string) ([]byte, error) {
	e, err := builtins.Get(name)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), e.Value...), nil
}

// Describe reads a built-in scenario's header (name, paper, description,
// policy) without validating or building it: cheap, for listings.
func Describe(name string) (File, error) {
	data, src, _, err := read(name)
	if err != nil {
		return File{}, err
	}
	var f File
	if _, err := toml.Decode(string(data), &f); err != nil {
		return File{}, tomlError(src, data, err)
	}
	return f, nil
}

// Load reads a built-in scenario by name, or a TOML file by path, and applies
// overrides: "KEY=VALUE" where KEY is a policy parameter name (e.g. rho) or a
// dotted path into the file (e.g. workload.options.jobs, cluster.nodes.0.vcores).
func Load(nameOrPath string, sets []string) (*Scenario, error) {
	return LoadWith(nameOrPath, sets, LoadOptions{})
}

// LoadOptions are Load's optional settings.
type LoadOptions struct {
	// Warn, if set, is told each warning (Scenario.Warnings) as soon as it
	// is known, before the scenario is built and checked.
	Warn func(msg string)
}

// LoadWith is Load with options.
func LoadWith(nameOrPath string, sets []string, o LoadOptions) (*Scenario, error) {
	data, src, dir, err := read(nameOrPath)
	if err != nil {
		return nil, err
	}
	return parse(data, src, dir, sets, o)
}

func read(nameOrPath string) (data []byte, src, dir string, err error) {
	if !strings.ContainsAny(nameOrPath, "/\\") && !strings.HasSuffix(nameOrPath, ".toml") {
		e, err := builtins.Get(nameOrPath)
		if err != nil {
			return nil, "", "", &Error{Source: nameOrPath, Reason: fmt.Sprintf("no built-in scenario of that name and not a .toml path%s (built-ins: %s)",
				registry.DidYouMean(nameOrPath, Builtins()), strings.Join(Builtins(), ", "))}
		}
		data = e.Value
		wd, _ := os.Getwd()
		return data, "builtin:" + nameOrPath, wd, nil
	}
	data, err = os.ReadFile(nameOrPath)
	if err != nil {
		return nil, "", "", &Error{Source: nameOrPath, Reason: err.Error()}
	}
	return data, nameOrPath, filepath.Dir(nameOrPath), nil
}

// Parse decodes and validates scenario text. src names it in errors.
func Parse(data []byte, src, dir string, sets []string) (*Scenario, error) {
	return parse(data, src, dir, sets, LoadOptions{})
}

func parse(data []byte, src, dir string, sets []string, o LoadOptions) (*Scenario, error) {
	sc := &Scenario{Source: src, Dir: dir, ParamSets: map[string]float64{}, warn: o.Warn}
	if err := sc.decode(data, src); err != nil {
		return nil, err
	}
	var paths []string
	for _, kv := range sets {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, &Error{Source: "--set " + kv, Reason: "want KEY=VALUE"}
		}
		if !strings.Contains(k, ".") {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return nil, &Error{Source: "--set " + kv, Key: k, Reason: "a policy parameter takes a number"}
			}
			sc.ParamSets[k] = f
			continue
		}
		paths = append(paths, kv)
	}
	if len(paths) > 0 {
		patched, err := applySets(data, src, paths)
		if err != nil {
			return nil, err
		}
		sc.origin = src + " with --set " + strings.Join(paths, " ")
		if err := sc.decode(patched, sc.origin); err != nil {
			return nil, setError(err, paths)
		}
	}
	if err := sc.validate(); err != nil {
		return nil, err
	}
	return sc, nil
}

// decode decodes strictly: unknown keys and wrong types are errors.
func (sc *Scenario) decode(data []byte, src string) error {
	var f File
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f)
	if err != nil {
		return tomlError(src, data, err)
	}
	sc.File = f
	sc.Options = nil
	if f.Workload.Generator != "" {
		g, ok := workload.Lookup(f.Workload.Generator)
		if !ok {
			return &Error{Source: src, Key: "workload.generator", Reason: fmt.Sprintf("unknown generator %q%s (known: %s)",
				f.Workload.Generator, registry.DidYouMean(f.Workload.Generator, workload.Names()), strings.Join(workload.Names(), ", "))}
		}
		sc.Options = g.Options()
		if md.IsDefined("workload", "options") {
			if err := md.PrimitiveDecode(f.Workload.Options, sc.Options); err != nil {
				key, reason := tomlReason(data, err)
				if key == "" {
					key = "workload.options"
				}
				return &Error{Source: src, Key: key, Reason: reason}
			}
		}
	} else if md.IsDefined("workload", "options") {
		return &Error{Source: src, Key: "workload.options", Reason: "options given without a generator"}
	}
	if und := md.Undecoded(); len(und) > 0 {
		return &Error{Source: src, Key: und[0].String(), Reason: sc.unknownKey(und)}
	}
	return nil
}

// unknownKey explains the first of the unknown keys: the nearest valid key
// of its table, the table's keys, and the other unknown keys.
func (sc *Scenario) unknownKey(und []toml.Key) string {
	k := und[0]
	parent, name := k[:len(k)-1], k[len(k)-1]
	valid, table := sc.keysAt(parent)
	var b strings.Builder
	b.WriteString("unknown key")
	if len(valid) > 0 {
		fmt.Fprintf(&b, "%s (%s takes: %s)", registry.DidYouMean(name, valid), table, strings.Join(valid, ", "))
	}
	var others []string // the decoder lists a key once per table of an array
	for _, u := range und[1:] {
		if s := u.String(); s != k.String() && !slices.Contains(others, s) {
			others = append(others, s)
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, " (also unknown: %s)", strings.Join(others, ", "))
	}
	return b.String()
}

// keysAt returns the keys the table at path takes (from the File struct's
// TOML tags, and the generator's options struct under workload.options) and
// a name for the table; nil for tables of free-form keys.
func (sc *Scenario) keysAt(path toml.Key) (keys []string, table string) {
	t := reflect.TypeOf(File{})
	table = "the file"
	if len(path) > 0 {
		table = path.String()
	}
	for i, p := range path {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil, table
		}
		f, ok := fieldByTag(t, p)
		if !ok {
			return nil, table
		}
		t = f.Type
		if t == reflect.TypeOf(toml.Primitive{}) && i == 1 && path[0] == "workload" && p == "options" {
			if sc.Options == nil {
				return nil, table
			}
			t = reflect.TypeOf(sc.Options)
			table = "generator " + sc.File.Workload.Generator + "'s workload.options"
		}
	}
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, table
	}
	for i := 0; i < t.NumField(); i++ {
		if tag := tomlTag(t.Field(i)); tag != "" {
			keys = append(keys, tag)
		}
	}
	return keys, table
}

func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		if tomlTag(t.Field(i)) == name {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

func tomlTag(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if tag == "-" {
		return ""
	}
	if tag == "" {
		return f.Name
	}
	return tag
}

// tomlError turns a TOML decoding error of data into an Error naming src,
// the key (for a wrong type), the line and column, and the reason.
// TOMLError is err, from decoding the TOML data of src, as an Error naming
// the line, the column and the key where known (other TOML inputs, such as
// a bench suite file, report their errors the same way).
func TOMLError(src string, data []byte, err error) *Error { return tomlError(src, data, err) }

func tomlError(src string, data []byte, err error) *Error {
	key, reason := tomlReason(data, err)
	return &Error{Source: src, Key: key, Reason: reason}
}

// tomlReason returns the key an error of decoding data is about (empty when
// not known, as for syntax errors) and its reason with the line and, where
// known, the column.
//
// A toml.ParseError's Message is empty for most syntax errors (toml v1.4.0:
// the reason is only in the error's own text), and its ErrorWithPosition
// panics on some inputs (found by FuzzParse with the document "0"), so the
// position is worked out here from the error's byte offset.
func tomlReason(data []byte, err error) (key, reason string) {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		// Type errors ("incompatible types") are plain errors with the same
		// "toml: line N (last key K): reason" shape.
		if m := tomlLineErr.FindStringSubmatch(err.Error()); m != nil {
			return m[2], "line " + m[1] + ": " + m[3]
		}
		return "", strings.TrimPrefix(err.Error(), "toml: ")
	}
	reason = parseErrorMessage(pe)
	line, col := errorPosition(data, pe.Position)
	switch {
	case line > 0 && col > 0:
		reason = fmt.Sprintf("line %d, column %d: %s", line, col, reason)
	case line > 0:
		reason = fmt.Sprintf("line %d: %s", line, reason)
	}
	// The last key read is context, not necessarily what is wrong (after
	// [a.b], a bad table header's last key is a.b).
	if pe.LastKey != "" && !strings.Contains(reason, "'"+pe.LastKey+"'") {
		reason += fmt.Sprintf(" (after key %s)", pe.LastKey)
	}
	return "", reason
}

var tomlLineErr = regexp.MustCompile(`^toml: line (\d+)(?: \(last key "(.*)"\))?: (.*)$`)

// parseErrorMessage is the reason of a ParseError without its "toml: line
// N (last key K): " prefix.
func parseErrorMessage(pe toml.ParseError) (msg string) {
	if pe.Message != "" {
		return pe.Message
	}
	defer func() {
		if recover() != nil { // no message and no wrapped error
			msg = "syntax error"
		}
	}()
	text := pe.Error()
	prefix := fmt.Sprintf("toml: line %d: ", pe.Position.Line)
	if pe.LastKey != "" {
		prefix = fmt.Sprintf("toml: line %d (last key %q): ", pe.Position.Line, pe.LastKey)
	}
	if m := strings.TrimPrefix(text, prefix); m != "" {
		return m
	}
	return "syntax error"
}

// errorPosition returns the 1-based line and column (in characters) of a
// ParseError's byte offset into data, or the decoder's line and no column
// when the offset is outside data. The offset counts from after a byte
// order mark, which the decoder skips; a line of the decoder's may be off
// by one at a line end (it counts the newline into the next line), which
// the offset is not.
func errorPosition(data []byte, pos toml.Position) (line, col int) {
	for _, bom := range []string{"\xff\xfe", "\xfe\xff", "\xef\xbb\xbf"} {
		if bytes.HasPrefix(data, []byte(bom)) {
			data = data[len(bom):]
			break
		}
	}
	if pos.Start < 0 || pos.Start > len(data) {
		return max(pos.Line, 0), 0
	}
	before := data[:pos.Start]
	line = 1 + bytes.Count(before, []byte("\n"))
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[lineStart:])
}

// setError blames a decoding error of the patched document on the --set
// that caused it: the document decoded before the sets went in, and a line
// number would point into a re-encoded text the user never saw.
func setError(err error, paths []string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	reason := setLinePrefix.ReplaceAllString(e.Reason, "")
	if reason == e.Reason {
		return err // not a decoding error of a line: the source already says --set
	}
	culprit := strings.Join(paths, " ")
	for _, kv := range paths {
		k, _, _ := strings.Cut(kv, "=")
		var named []string // the key without array indices, as TOML names it
		for _, part := range strings.Split(strings.TrimSpace(k), ".") {
			if _, err := strconv.Atoi(part); err != nil {
				named = append(named, part)
			}
		}
		if strings.Join(named, ".") == e.Key {
			culprit = kv
			break
		}
	}
	return &Error{Source: "--set " + culprit, Key: e.Key, Reason: reason}
}

var setLinePrefix = regexp.MustCompile(`^line \d+(, column \d+)?: `)

// applySets patches dotted paths into the document. Numeric path parts
// index arrays of tables (cluster.nodes.0.vcores).
func applySets(data []byte, src string, sets []string) ([]byte, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, tomlError(src, data, err)
	}
	for _, kv := range sets {
		k, v, _ := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		var holder map[string]any
		if _, err := toml.Decode("v = "+v, &holder); err != nil {
			holder = map[string]any{"v": v} // a bare word is a string
		}
		if err := setPath(doc, strings.Split(k, "."), holder["v"]); err != nil {
			return nil, &Error{Source: "--set " + kv, Key: k, Reason: err.Error()}
		}
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return nil, &Error{Source: "--set", Reason: err.Error()}
	}
	return buf.Bytes(), nil
}

func setPath(node any, path []string, v any) error {
	for i, p := range path {
		last := i == len(path)-1
		switch cur := node.(type) {
		case map[string]any:
			if last {
				cur[p] = v
				return nil
			}
			next, ok := cur[p]
			if !ok {
				next = map[string]any{}
				cur[p] = next
			}
			node = next
		case []map[string]any:
			idx, err := strconv.Atoi(p)
			if err != nil || idx < 0 || idx >= len(cur) {
				return fmt.Errorf("%q is not an index of a %d-element array", p, len(cur))
			}
			if last {
				return errors.New("cannot replace a whole table")
			}
			node = cur[idx]
		default:
			return fmt.Errorf("%q is not a table", strings.Join(path[:i], "."))
		}
	}
	return nil
}
