package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// ExpandRow reads one row of a FEN-like position format, where decimal
// numbers stand for runs of empty points and '.' for one empty point, and
// returns it with every empty point written '.'. pieces lists the letters a
// row may hold; the row must come to exactly width points.
func ExpandRow(row string, width int, pieces string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(row); {
		c := row[i]
		switch {
		case c >= '0' && c <= '9':
			j := i
			for j < len(row) && row[j] >= '0' && row[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(row[i:j])
			if n == 0 || n > width {
				return "", fmt.Errorf("row %q has an empty run of %s; runs are 1 to %d", row, row[i:j], width)
			}
			b.WriteString(strings.Repeat(".", n))
			i = j
		case c == '.' || strings.IndexByte(pieces, c) >= 0:
			b.WriteByte(c)
			i++
		default:
			return "", fmt.Errorf("row %q has %q; a row holds %s, '.' and digits", row, c, quoteLetters(pieces))
		}
		if b.Len() > width {
			return "", fmt.Errorf("row %q is longer than %d points", row, width)
		}
	}
	if b.Len() != width {
		return "", fmt.Errorf("row %q has %d points, want %d", row, b.Len(), width)
	}
	return b.String(), nil
}

// CompressRow writes runs of '.' in row as decimal numbers: "..P....." is "2P5".
func CompressRow(row string) string {
	var b strings.Builder
	run := 0
	for i := 0; i < len(row); i++ {
		if row[i] == '.' {
			run++
			continue
		}
		if run > 0 {
			b.WriteString(strconv.Itoa(run))
			run = 0
		}
		b.WriteByte(row[i])
	}
	if run > 0 {
		b.WriteString(strconv.Itoa(run))
	}
	return b.String()
}

func quoteLetters(s string) string {
	parts := make([]string, len(s))
	for i := range s {
		parts[i] = s[i : i+1]
	}
	return "the letters " + strings.Join(parts, " ")
}
