package pbem

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// eachParallel calls fn(i) for every i below n on at most GOMAXPROCS
// goroutines at once, and returns when every call has returned. The mails
// of a batch are read and their passwords checked this way before the
// write lock, so that all cores work on them; under the lock only one can.
// fn must not panic: a panic in a worker would end the process.
func eachParallel(n int, fn func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}
