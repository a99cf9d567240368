package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/dev/shopcart/internal/store"
	"github.com/dev/shopcart/internal/testutil"
)

func TestCartAdd(t *testing.T) {
	db := testutil.OpenDB(t)
	h := &CartHandler{Store: store.New(db)}

	form := url.Values{"sku": {"TSHIRT-M"}, "qty": {"1"}}
	req := httptest.NewRequest(http.MethodPost, "/cart/items", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	rec := httptest.NewRecorder()

	h.Add(rec, req)

	if rec.Code != http.StatusOK {
		t.Errorf("got status %d, want 200", rec.Code)
		t.Logf("body: %s", rec.Body.String())
	}
}

func TestCartRemove(t *testing.T) {
	db := testutil.OpenDB(t)
	h := &CartHandler{Store: store.New(db)}
	testutil.SeedCart(t, db, "sess-1", "MUG-01", 2)

	req := httptest.NewRequest(http.MethodDelete, "/cart/items/MUG-01", nil)
	req.AddCookie(&http.Cookie{Name: "sid", Value: "sess-1"})
	rec := httptest.NewRecorder()

	h.Remove(rec, req)

	if rec.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", rec.Code)
	}
}
