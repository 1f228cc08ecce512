package taratibu_test

import (
	"fmt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/taratibu"
)

// Turn n is n single moves. A turn may come in one mail or in several: the
// position counts the moves made, and the seat to move changes only when the
// turn is complete.
func Example() {
	pos, err := taratibu.Game.Start(rules.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, mail := range []string{"5254", "3634", "2624"} {
		steps, err := pos.Play(mail)
		fmt.Println(mail, "->", steps, err, "| seat to move:", pos.ToMove())
	}
	fmt.Println(pos)
	// Output:
	// 5254 -> [5254] <nil> | seat to move: 1
	// 3634 -> [3634] <nil> | seat to move: 1
	// 2624 -> [2624] <nil> | seat to move: 0
	// dmfabes/h6/7/1tc1C2/7/5TH/SEBAFMD w 3 0 -
}
