package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"syscall"
	"time"

	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/web"
	"github.com/pbemd/pbemd/store"
)

// startWeb serves the web view on addr, unless addr is "off"; addr ""
// is the default address, which falls back to a free loopback port when
// another program holds it, so that a second pbemd on one machine still
// starts. An address the operator chose (by flag or in the file, even
// DefaultHTTP itself) must be free: a view that silently moved would not be
// where the operator's proxy points. It returns the view's URL ("" when
// off) and a function that stops it.
func startWeb(addr string, db *store.DB, cfg *config.Config, unsub web.Unsubscriber, log *slog.Logger) (string, func(), error) {
	if addr == "off" {
		return "", func() {}, nil
	}
	chosen := addr != ""
	if !chosen {
		addr = config.DefaultHTTP
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && !chosen && errors.Is(err, syscall.EADDRINUSE) {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return "", nil, fmt.Errorf("web view: %w (choose another address with -http or the http setting, or turn it off with -http off)", err)
	}
	srv := web.New(db, web.Options{Name: cfg.Name, Mail: cfg.Address, Log: log.With("part", "web"), URL: cfg.PublicURL}).WithUnsubscribe(unsub).HTTPServer()
	go srv.Serve(ln)
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
	}
	return "http://" + ln.Addr().String() + "/", stop, nil
}

// webAddr is where the web view listens: the -http flag, else the
// configuration's http setting, else "" for the default.
func webAddr(opts Options, cfg *config.Config) string {
	if opts.HTTPAddr != "" {
		return opts.HTTPAddr
	}
	return cfg.HTTP
}

func orOff(url string) string {
	if url == "" {
		return "off"
	}
	return url
}
