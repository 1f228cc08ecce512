package pbem

import (
	"strconv"
	"strings"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// pageRows is how many lines a page of a list shows (games, history,
// standings): with its header and footer, a page fits on a screen. A page
// of "all show" is allBoards boards, each its own mail.
const (
	pageRows  = 50
	allBoards = 10
	maxPage   = 1_000_000 // beyond any list: a bound on the keys a page skips
)

// splitPage takes a trailing "page N" off args; without one the page is 1.
func splitPage(args []string) ([]string, int, error) {
	n := len(args)
	if n < 2 || !strings.EqualFold(args[n-2], "page") {
		return args, 1, nil
	}
	p, err := strconv.Atoi(args[n-1])
	if err != nil || p < 1 || p > maxPage {
		return nil, 0, fail("%q is not a page number; write page 2 for the second page, and so on", args[n-1])
	}
	return args[:n-2], p, nil
}

// page is the store's page number p of size rows.
func page(p, size int) store.Page { return store.Page{Skip: (p - 1) * size, Size: size} }

// nextPage is the last line of a list that has more after page p: the
// command that asks for the next page.
func nextPage(command string, p int, more bool) string {
	return nextPageIn(templates.English, command, p, more)
}

// nextPageIn is nextPage in the language lang.
func nextPageIn(lang, command string, p int, more bool) string {
	if !more {
		return ""
	}
	return templates.Sprintf(lang, "More follow. For the next page send: %s page %d", command, p+1)
}

// seatFilter is the filter word as a test of the seat index's state.
func seatFilter(filter string) func(store.SeatState) bool {
	switch filter {
	case "active":
		return func(s store.SeatState) bool { return !s.Over }
	case "inactive":
		return func(s store.SeatState) bool { return s.Over }
	case "next":
		return store.SeatState.ToMove
	case "open":
		return func(s store.SeatState) bool { return s.Open }
	}
	return nil
}

// kindState is the filter word as a list of a kind's boards; ok is false
// for a filter that needs a user ("next").
func kindState(filter string) (state store.BoardState, ok bool) {
	switch filter {
	case "all":
		return store.AllBoards, true
	case "active":
		return store.RunningBoards, true
	case "inactive":
		return store.FinishedBoards, true
	case "open":
		return store.OpenBoards, true
	}
	return 0, false
}

// heads reads the heads of the boards (what a list row shows), in order.
func (r *request) heads(refs []store.GameRef) ([]*store.GameHead, error) {
	return readEach(refs, r.tx.GameHead)
}

// readEach reads the board of each ref with read, in order.
func readEach[T any](refs []store.GameRef, read func(kind string, board int) (T, error)) ([]T, error) {
	out := make([]T, 0, len(refs))
	for _, ref := range refs {
		v, err := read(ref.Kind, ref.Board)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// refsOf are the boards of the kind with the numbers.
func refsOf(kind string, nums []int) []store.GameRef {
	refs := make([]store.GameRef, len(nums))
	for i, n := range nums {
		refs[i] = store.GameRef{Kind: kind, Board: n}
	}
	return refs
}

// command is the words of a command as the reply quotes them back.
func command(words ...string) string {
	var out []string
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}
