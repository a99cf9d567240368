package cache

import (
	"net/http/httptest"
	"testing"
)

func TestKeyStable(t *testing.T) {
	r := httptest.NewRequest("GET", "http://img.example.com/a/b.png", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	got := Key(r, []string{"Accept-Encoding"})
	if got != "5f0c3c8a6b1e1d0f4bb4e2a1f1d5a9b7" {
		t.Fatalf("unexpected key %q", got)
	}
}

func TestKeyVaryMatters(t *testing.T) {
	a := httptest.NewRequest("GET", "http://img.example.com/x", nil)
	b := httptest.NewRequest("GET", "http://img.example.com/x", nil)
	b.Header.Set("Accept-Encoding", "br")
	if Key(a, []string{"Accept-Encoding"}) == Key(b, []string{"Accept-Encoding"}) {
		t.Fatal("vary header ignored")
	}
}
