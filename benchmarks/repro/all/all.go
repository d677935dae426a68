// Package all registers every paper's reproduction with package repro.
package all
