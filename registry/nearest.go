package registry

import (
	"fmt"
	"sort"
	"strings"
)

// Nearest returns the candidate closest to word, for "did you mean"
// hints: the one at the smallest edit distance (ignoring case, '-' and '_'
// alike; a swap of neighbours counts as one edit) if that distance is at most 1 for words of up to 4
// characters and at most 2 for longer ones, else one that word is a
// prefix of (mem -> mem_mb); "" when none is close. Ties go to the
// candidate first in sorted order.
func Nearest(word string, candidates []string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	w := norm(word)
	if w == "" {
		return ""
	}
	cs := append([]string(nil), candidates...)
	sort.Strings(cs)
	best, bestD := "", -1
	for _, c := range cs {
		if c == word {
			continue
		}
		d := editDistance(w, norm(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if len([]rune(w)) <= 4 {
		limit = 1
	}
	if bestD >= 0 && bestD <= limit {
		return best
	}
	for _, c := range cs {
		if strings.HasPrefix(norm(c), w) {
			return c
		}
	}
	return ""
}

// DidYouMean is "; did you mean X?" for the candidate nearest to word, or "".
func DidYouMean(word string, candidates []string) string {
	if n := Nearest(word, candidates); n != "" {
		return fmt.Sprintf("; did you mean %s?", n)
	}
	return ""
}

// editDistance is the optimal string alignment distance between a and b,
// in runes: insertions, deletions, substitutions and transpositions of
// neighbours (fiar -> fair) cost 1.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
