package board

import (
	"fmt"
	"sync"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// A PositionCache keeps the replayed positions of recently used boards.
// A nil cache holds nothing.
type PositionCache struct {
	mu    sync.Mutex
	max   int
	items map[string]cachedPosition
}

type cachedPosition struct {
	moves int
	text  string
	pos   rules.Position
}

// NewPositionCache returns a cache of at most max positions.
func NewPositionCache(max int) *PositionCache {
	return &PositionCache{max: max, items: map[string]cachedPosition{}}
}

func cacheKey(rec *store.Game) string { return fmt.Sprintf("%s/%d", rec.Kind, rec.Board) }

// Get returns a copy of the cached position of rec, or nil when the cache
// holds none for its current move count and position, or is nil.
func (c *PositionCache) Get(rec *store.Game) rules.Position {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[cacheKey(rec)]
	if !ok || it.moves != len(rec.Moves) || it.text != rec.Position {
		return nil
	}
	return it.pos.Clone()
}

// Put keeps a copy of pos as the position of rec.
func (c *PositionCache) Put(rec *store.Game, pos rules.Position) { c.Keep(rec, pos.Clone()) }

// Keep is Put of a position no one changes any more: several caches may
// hold it, as Get hands out copies.
func (c *PositionCache) Keep(rec *store.Game, pos rules.Position) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.items) >= c.max {
		clear(c.items) // crude, but a replay is cheap and misses are rare
	}
	c.items[cacheKey(rec)] = cachedPosition{moves: len(rec.Moves), text: pos.String(), pos: pos}
}
