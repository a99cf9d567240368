package ledger

import "testing"

func TestBalanceSumsEntries(t *testing.T) {
	l := New()
	l.Post(Entry{Account: "cash", Minor: 1000})
	l.Post(Entry{Account: "cash", Minor: -250})
	if got := l.Balance("cash"); got != 750 {
		t.Fatalf("Balance(cash) = %d, want 750", got)
	}
}
