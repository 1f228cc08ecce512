package metrics

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// The sample alert rules name only metrics the daemon exports: a rule on a
// name that does not exist never fires, and says nothing.
func TestAlertRulesNameExportedMetrics(t *testing.T) {
	data, err := os.ReadFile("../../contrib/pbemd-alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert, Expr string
			}
		}
	}
	if err := yaml.Unmarshal(data, &rules); err != nil {
		t.Fatalf("contrib/pbemd-alerts.yml: %v", err)
	}
	m := New("v", Read{
		Waiting:    func() (int, time.Time, error) { return 0, time.Time{}, nil },
		Failed:     func() (int, error) { return 0, nil },
		StoreBytes: func() (int64, error) { return 0, nil },
		RobotTurns: func() int { return 0 },
	})
	m.MailIn("imap", "done")
	text := scrape(t, m)
	name := regexp.MustCompile(`pbemd_[a-z_]+`)
	n := 0
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			n++
			if r.Alert == "" || r.Expr == "" {
				t.Errorf("a rule without alert or expr: %+v", r)
			}
			for _, metric := range name.FindAllString(r.Expr, -1) {
				if !strings.Contains(text, "\n"+metric+" ") && !strings.Contains(text, "\n"+metric+"{") {
					t.Errorf("alert %s: %s is not exported", r.Alert, metric)
				}
			}
		}
	}
	if n < 5 {
		t.Errorf("%d alert rules; want the sample set", n)
	}
}
