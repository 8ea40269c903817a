package contract

import (
	"testing"
	"time"
)

// TestWaitText: a wait is written with its noun in the singular for one
// ("1 minute", not "1 minutes").
func TestWaitText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Hour: "1 hour", 2 * time.Hour: "2 hours", time.Minute: "1 minute", 90 * time.Minute: "90 minutes", 90 * time.Second: "1m30s",
	} {
		if got := waitText(d); got != want {
			t.Errorf("waitText(%v) = %q, want %q", d, got, want)
		}
	}
}
