package catalog_test

import (
	"fmt"

	"github.com/pbemd/pbemd/rules/catalog"
)

// Games are found by name or alias, in any case.
func ExampleLookup() {
	for _, name := range []string{"tanbo", "Baroque", "chess"} {
		g, ok := catalog.Lookup(name)
		if !ok {
			fmt.Println(name, "is no game of this server")
			continue
		}
		fmt.Println(name, "is", g.Title(), "- first to move:", g.Sides()[0])
	}
	// Output:
	// tanbo is Tanbo - first to move: Black
	// Baroque is Ultima - first to move: White
	// chess is no game of this server
}

// All lists the games in the order help and list show them.
func ExampleAll() {
	for _, g := range catalog.All() {
		fmt.Println(g.Name(), g.Aliases(), len(g.Options()), "options")
	}
	// Output:
	// ultima [baroque] 3 options
	// tanbo [] 2 options
	// taratibu [] 0 options
	// tobit [] 0 options
}
