package models

// The tests build policies by name: the program's registrations (runner
// and the command import package policies; this package, below them,
// does not).
import _ "yarngym/policies"
