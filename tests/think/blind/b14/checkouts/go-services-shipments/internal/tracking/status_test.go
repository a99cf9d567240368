package tracking

import "testing"

func TestNextStatus(t *testing.T) {
	if got := NextStatus(StatusPicked); got != StatusInTransit {
		t.Fatalf("got %v", got)
	}
}
