defmodule Shop do
end
