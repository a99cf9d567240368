package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestListShow(t *testing.T) {
	h := newTestHandler(t)
	rec := httptest.NewRecorder()
	h.Show(rec, httptest.NewRequest(http.MethodGet, "/lists/7", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", rec.Code)
	}
}

func TestListClaimItem(t *testing.T) {
	h := newTestHandler(t)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/lists/7/items/3/claim", nil)
	req.Header.Set("HX-Request", "true")
	h.Claim(rec, req)
	if got := rec.Header().Get("HX-Trigger"); got != "item-claimed" {
		t.Errorf("HX-Trigger = %q, want item-claimed", got)
	}
}
