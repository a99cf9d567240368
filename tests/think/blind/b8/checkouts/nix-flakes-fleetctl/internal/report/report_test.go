package report

import "testing"

func TestTableHeader(t *testing.T) {
	out := Table([]Node{{Name: "n1", State: "ready", Pods: 3}})
	if out[:4] != "NAME" {
		t.Fatalf("unexpected header: %q", out)
	}
}

func TestTableDraining(t *testing.T) {
	out := Table([]Node{{Name: "n2", State: "draining", Pods: 0}})
	if !contains(out, "draining") {
		t.Fatal("missing draining state")
	}
}
