package ultima

import (
	"sync"

	"github.com/pbemd/pbemd/rules"
)

// helpText is the help with the start and an example of each capture,
// drawn by these rules.
var helpText = sync.OnceValue(func() string {
	return help + "\n" + rules.MustHelpExamples(game{}, nil, []rules.HelpExample{
		{Title: "The pawn takes each enemy it lands next to with a friend beyond, c2-c5",
			Position: "4k3/8/8/3pP3/8/8/2P5/4K3 w", Moves: []string{"c2-c5"}},
		{Title: "The long leaper jumps enemies with an empty square after each, d2-d6",
			Position: "k7/8/8/3p4/8/3p4/3L4/7K w", Moves: []string{"d2-d6"}},
		{Title: "The withdrawer moves straight away from the enemy beside it, d4-d2",
			Position: "k7/8/8/3p4/3W4/8/8/7K w", Moves: []string{"d4-d2"}},
		{Title: "The coordinator takes on the corners of its and its king's lines: h3-h5 takes on e5, where its rank meets its king's file",
			Position: "k7/8/8/4p3/8/7C/8/4K3 w", Moves: []string{"h3-h5"}},
		{Title: "The king moves onto the piece it takes: e1-e2",
			Position: "k7/8/8/8/8/8/4p3/4K3 w", Moves: []string{"e1-e2"}},
		{Title: "The chameleon takes a withdrawer as a withdrawer would, by moving away, d4-d2",
			Position: "k7/8/8/3w4/3X4/8/8/7K w", Moves: []string{"d4-d2"}},
	})
})

const help = `Ultima (Baroque chess), Robert Abbott 1962

White moves first. Pieces (White upper case, Black lower case):
  K king         steps one square any way; captures by moving onto
                 a piece
  P pawn         slides like a rook; captures each enemy it lands
                 orthogonally next to that has a friendly piece beyond
  W withdrawer   slides like a queen; captures the enemy it starts
                 next to by moving straight away from it
  L long leaper  slides like a queen; captures by jumping enemies on
                 its line, each followed by an empty square, landing
                 on any empty square after the last one
  C coordinator  slides like a queen; then captures enemies where its
                 rank and file cross its own king's file and rank
  I immobilizer  slides like a queen; captures nothing, but freezes
                 every enemy piece next to it (a frozen piece cannot
                 move)
  X chameleon    slides like a queen; captures each enemy only the way
                 that enemy captures (a king by stepping, pawns only on
                 rank or file moves, leaps only over leapers); never
                 chameleons or immobilizers; freezes an enemy
                 immobilizer next to it
Only the king lands on an occupied square. Instead of moving you may
remove one of your own frozen pieces other than the king (suicide).
A move may not leave your own king where it could be captured. A side
with no legal move loses (checkmate or stalemate).

Start: a1 I, b1 L, c1 X, d1 W, e1 K, f1 X, g1 L, h1 C, pawns on rank 2;
Black mirrored with the immobilizer on h8.

Notation (any case): Pe2-e5, e2-e5, e2e5 or e2xe5; a leap may list its
path: Ld2-d4-d6-d8; suicide: Lc5-off or suicide c5. The server prints
Ld2-d8 (takes d3 d5 d7).

Options:
  -singleleap      a leap jumps one piece and lands directly beyond it
  -pure            Cambridge rules: a chameleon's leap captures only
                   leapers; an enemy immobilizer has no power over a
                   piece while another immobilizer or chameleon of that
                   piece's side stands next to it
  -stalemate=draw  a side with no legal move that is not in check draws
                   (default -stalemate=loss)

Example: ultima move 101 alice secret e2-e5
`
