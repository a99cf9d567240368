package ratelimit

import (
	"testing"
	"time"
)

func TestBucketRefill(t *testing.T) {
	b := New(2, time.Second)
	b.Allow()
	b.Allow()
	if b.Allow() {
		t.Fatal("expected empty bucket")
	}
}
