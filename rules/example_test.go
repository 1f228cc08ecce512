package rules_test

import (
	"fmt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/tanbo"
)

// A game is played through the interface alone: options, the start, moves,
// the legal replies and the result. The server knows no more of any game.
func Example() {
	g := tanbo.Game
	opts, err := rules.ParseOptions(g, []string{"-size=9"})
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, err := g.Start(opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %s: %s to move\n", g.Title(), opts, g.Sides()[pos.ToMove()])

	steps, err := pos.Play("h7")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("played", steps[0])
	fmt.Println(pos)
	fmt.Println(g.Sides()[pos.ToMove()], "has", len(pos.Legal()), "legal moves; over:", pos.Result().Over)

	// A refused move leaves the position as it was and says why.
	_, err = pos.Play("e5")
	fmt.Println(err)
	// Output:
	// Tanbo -size=9: Black to move
	// played h7
	// ........./.w.....b./.......b./........./........./........./........./.b.....w./......... w
	// White has 8 legal moves; over: false
	// "e5": e5 touches 0 white stones; a new white stone must touch exactly 1 white stone, up, down, left or right
}

// Options are checked against the game's list; an unknown one is refused
// with the valid ones, and a default value is not stored.
func ExampleParseOptions() {
	opts, err := rules.ParseOptions(tanbo.Game, []string{"-size=19"})
	fmt.Printf("%q %v\n", opts.Words(), err)
	_, err = rules.ParseOptions(tanbo.Game, []string{"-size=10"})
	fmt.Println(err)
	// Output:
	// [] <nil>
	// "-size=10" has a value -size does not take; write -size=19|13|9
}

// A step prints as the move lists of the board mails show it.
func ExampleStep_String() {
	fmt.Println(rules.Step{Move: "Ld2-d8", Captured: []string{"d3", "d5", "d7"}})
	fmt.Println(rules.Step{Move: "h7"})
	// Output:
	// Ld2-d8 (takes d3 d5 d7)
	// h7
}

// Position formats share the FEN-like rows: digits for runs of empty points.
func ExampleExpandRow() {
	row, err := rules.ExpandRow("2b1w", 5, "bw")
	fmt.Println(row, err, rules.CompressRow(row))
	// Output:
	// ..b.w <nil> 2b1w
}
