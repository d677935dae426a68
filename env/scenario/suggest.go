package scenario

import (
	"fmt"
	"sort"
	"strings"
)

// Nearest returns the candidate closest to word, for "did you mean"
// hints: the one at the smallest edit distance (Levenshtein, ignoring case,
// '-' and '_' alike) if that distance is at most 1 for words of up to 4
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

// didYouMean is " (did you mean X?)" for the nearest candidate, or "".
func didYouMean(word string, candidates []string) string {
	if n := Nearest(word, candidates); n != "" {
		return fmt.Sprintf(" (did you mean %s?)", n)
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
