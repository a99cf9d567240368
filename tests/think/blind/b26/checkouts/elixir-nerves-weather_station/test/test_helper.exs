ExUnit.start(exclude: [:target])
