package daemon

import (
	"log/slog"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/outbox"
	"github.com/pbemd/pbemd/pbem/robot"
)

// startRobots makes the robot players and returns the worker that plays
// them; each robot move wakes the sender for its board mails.
func startRobots(svc *pbem.Service, cfg *config.Config, sender *outbox.Sender, log *slog.Logger) (*robot.Worker, error) {
	w := robot.NewWorker(svc, robot.WorkerOptions{
		Budget:   robot.Budget{Time: cfg.Robots.MoveTime},
		Log:      log.With("part", "robot"),
		OnPlayed: sender.Kick,
	})
	if err := w.Start(); err != nil {
		return nil, err
	}
	return w, nil
}
