package limiter

import "testing"

func TestForReturnsSameLimiter(t *testing.T) {
	l := New(Config{RPS: 5, Burst: 10})
	if l.For("a") != l.For("a") {
		t.Fatal("expected cached limiter")
	}
}

func TestDefaultBurst(t *testing.T) {
	l := New(Config{RPS: 5, Burst: 10})
	if got := l.For("a").Burst(); got != 10 {
		t.Fatalf("burst = %d", got)
	}
}
