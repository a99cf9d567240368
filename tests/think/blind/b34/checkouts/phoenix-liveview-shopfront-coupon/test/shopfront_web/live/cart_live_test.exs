defmodule ShopfrontWeb.CartLiveTest do
  use ShopfrontWeb.ConnCase

  import Phoenix.LiveViewTest
  import Shopfront.CatalogFixtures
  import Shopfront.CartsFixtures

  setup :register_and_log_in_user

  describe "cart" do
    test "shows items and total", %{conn: conn, user: user} do
      product = product_fixture(price: "12.00")
      cart_fixture(user: user, items: [%{product: product, qty: 1}])

      {:ok, _view, html} = live(conn, ~p"/cart")
      assert html =~ product.name
      assert html =~ "£12.00"
    end

    test "updates total when quantity changes", %{conn: conn, user: user} do
      product = product_fixture(price: "12.00")
      cart = cart_fixture(user: user, items: [%{product: product, qty: 1}])
      [item] = cart.items

      {:ok, view, _html} = live(conn, ~p"/cart")
      assert render_change(view, "update_qty", %{"item_id" => item.id, "qty" => "3"}) =~ "£36.00"
    end
  end
end
