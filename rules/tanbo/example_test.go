package tanbo_test

import (
	"fmt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/tanbo"
)

// A position is read from its one-line format (digits stand for runs of
// empty points) and drawn as the board mails show it.
func Example() {
	pos, err := tanbo.Game.ParsePosition("9/1w5b1/9/9/9/9/9/1b5w1/9 b", rules.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := pos.Play("H7"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(pos.Board())
	fmt.Println(pos.Legal())
	// Output:
	//     a b c d e f g h i
	//  9  . . . . . . . . .  9
	//  8  . O . . . . . X .  8
	//  7  . . . . . . . X .  7
	//  6  . . . . . . . . .  6
	//  5  . . . . . . . . .  5
	//  4  . . . . . . . . .  4
	//  3  . . . . . . . . .  3
	//  2  . X . . . . . O .  2
	//  1  . . . . . . . . .  1
	//     a b c d e f g h i
	// X Black (3 stones)   O White (2 stones)
	// [h1 g2 i2 h3 b7 a8 c8 b9]
}
