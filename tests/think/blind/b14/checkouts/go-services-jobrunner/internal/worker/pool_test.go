package worker

import "testing"

func TestPool_Drain(t *testing.T) {
	p := NewPool(2)
	p.Submit(func() {})
	p.Drain()
}
