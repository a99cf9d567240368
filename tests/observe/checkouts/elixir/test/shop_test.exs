defmodule ShopTest do
end
