package tobit_test

import (
	"fmt"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/tobit"
)

// Steps are written from-to, captures with every landing point; capturing
// is compulsory, so once one is possible it is the only legal kind of move.
func Example() {
	pos, err := tobit.Game.Start(rules.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range []string{"9-16", "30-23"} {
		if _, err := pos.Play(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("legal:", pos.Legal())
	steps, err := pos.Play("16x30")
	fmt.Println(steps, err)
	fmt.Println(pos)
	// Output:
	// legal: [16x30]
	// [16x30 (takes 23)] <nil>
	// wwwwwwww.www..............bbbwbbbbbbbb b
}
