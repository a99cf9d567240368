package handlers

import (
	"net/http"
	"strconv"

	"github.com/dev/shopcart/components"
	"github.com/dev/shopcart/internal/store"
)

type CartHandler struct {
	Store *store.Queries
}

func (h *CartHandler) Add(w http.ResponseWriter, r *http.Request) {
	qty, err := strconv.Atoi(r.FormValue("qty"))
	if err != nil || qty < 1 {
		http.Error(w, "bad quantity", http.StatusBadRequest)
		return
	}
	sku := r.FormValue("sku")
	if err := h.Store.AddCartItem(r.Context(), store.AddCartItemParams{SessionID: sessionID(r), Sku: sku, Quantity: int32(qty)}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h.Drawer(w, r)
}

func (h *CartHandler) Remove(w http.ResponseWriter, r *http.Request) {
	sku := r.PathValue("sku")
	if err := h.Store.RemoveCartItem(r.Context(), store.RemoveCartItemParams{SessionID: sessionID(r), Sku: sku}); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}
