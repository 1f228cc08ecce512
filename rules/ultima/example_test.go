package ultima_test

import (
	"fmt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/ultima"
)

// Moves may be written several ways; the server prints the canonical form.
func Example() {
	pos, err := ultima.Game.Start(rules.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	steps, err := pos.Play("e2e5")
	fmt.Println(steps, err)
	fmt.Println(pos)
	// Output:
	// [Pe2-e5] <nil>
	// clxwkxli/pppppppp/8/4P3/8/8/PPPP1PPP/ILXWKXLC b
}

// A long leaper jumps every enemy on its line that an empty square follows:
// the path may be written out, and the step names what it took.
func Example_leap() {
	pos, err := ultima.Game.ParsePosition("k7/3p4/8/3p4/8/3p4/3L4/7K w", rules.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	steps, err := pos.Play("Ld2-d4-d6-d8")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(steps[0])
	fmt.Print(pos.Board())
	// Output:
	// Ld2-d8 (takes d3 d5 d7)
	//      a b c d e f g h
	//    +-----------------+
	//  8 | k . . L . . . . | 8
	//  7 | . . . . . . . . | 7
	//  6 | . . . . . . . . | 6
	//  5 | . . . . . . . . | 5
	//  4 | . . . . . . . . | 4
	//  3 | . . . . . . . . | 3
	//  2 | . . . . . . . . | 2
	//  1 | . . . . . . . K | 1
	//    +-----------------+
	//      a b c d e f g h
	// K king  P pawn  W withdrawer  L long leaper  C coordinator
	// I immobilizer  X chameleon  (White upper case, Black lower case)
}
