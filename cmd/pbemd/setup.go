package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/pbem/outbox"
	"github.com/pbemd/pbemd/store"
)

// dataFlags are the flags of the subcommands that work on the game data:
// the configuration file and the data directory.
type dataFlags struct {
	config string
	data   string
}

// dataFlags declares -config, whose default (none) configUsage explains,
// and -data.
func (c *invocation) dataFlags(configUsage string) *dataFlags {
	f := &dataFlags{}
	c.flags.StringVar(&f.config, "config", "", "configuration `file` (default: none; "+configUsage+")")
	c.flags.StringVar(&f.data, "data", "", "data `directory` (default: the config's, or ./pbem-data)")
	return f
}

// loadConfig is the configuration -config names, or without it the embedded
// default's, with -data over its data directory.
// Only the servers uses names are checked: each subcommand needs only the
// settings it uses.
func (f *dataFlags) loadConfig(uses config.Uses) (*config.Config, error) {
	cfg := config.Default()
	cfg.Address = daemon.EmbeddedAddress
	if f.config != "" {
		var err error
		if cfg, err = config.LoadFor(f.config, uses); err != nil {
			return nil, err
		}
	}
	if f.data != "" {
		cfg.Data = f.data
	}
	return cfg, nil
}

// sendsBy is what a subcommand that sends its mails by the configured SMTP
// server uses, unless print writes them to stdout instead.
func sendsBy(print bool) config.Uses {
	if print {
		return config.UsesNone
	}
	return config.UsesSMTP
}

// A setup is what the subcommands that run once work with: the
// configuration, its logger, the store and the service on it.
type setup struct {
	configured bool // -config was given: replies can be sent by its SMTP server
	cfg        *config.Config
	log        *slog.Logger
	db         *store.DB
	svc        *pbem.Service
	dry        bool   // a dry run: db is a copy, thrown away by Close
	cleanup    func() // removes the copy of a dry run
}

// open loads the configuration and opens the store and the service as
// pbemd serve does. The caller closes the setup.
// With dry set, it opens a copy of the store in a temporary directory
// instead (see openDry), so nothing done is kept.
func (c *invocation) open(f *dataFlags, uses config.Uses, dry bool) (*setup, error) {
	if dry {
		uses = config.UsesNone // nothing is sent
	}
	cfg, err := f.loadConfig(uses)
	if err != nil {
		return nil, err
	}
	log := cfg.Log.Logger(c.stderr)
	if dry {
		return c.openDry(cfg, log)
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return nil, err
	}
	db, err := cfg.OpenStore(&store.Options{Log: log})
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			return nil, fmt.Errorf("%w; only one pbemd may use the data directory %s at a time", err, cfg.Data)
		}
		return nil, err
	}
	svc := pbem.New(db, cfg.Service(log))
	return &setup{configured: f.config != "", cfg: cfg, log: log, db: db, svc: svc}, nil
}

func (s *setup) Close() error {
	err := s.db.Close()
	if s.cleanup != nil {
		s.cleanup()
	}
	return err
}

// deliver hands the outbox mails ids on: with print to stdout as an mbox;
// with a configuration to its SMTP server (what cannot be sent now stays
// in the outbox for the next run or for pbemd serve); otherwise they wait
// in the outbox.
func (s *setup) deliver(c *invocation, ids []uint64, print bool) error {
	switch {
	case print || s.dry:
		return outbox.Print(s.db, ids, c.stdout)
	case s.configured:
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		return daemon.SendQueued(ctx, s.db, s.cfg)
	}
	return nil
}
