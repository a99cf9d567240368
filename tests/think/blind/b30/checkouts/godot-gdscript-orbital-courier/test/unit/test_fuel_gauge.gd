extends GutTest

const FuelTank = preload("res://scripts/fuel_tank.gd")
var _tank

func before_each():
	_tank = autofree(FuelTank.new())
	_tank.capacity = 100.0
	_tank.fuel = 100.0

func test_burn_consumes_fuel():
	_tank.burn(0.5, 5.0)
	assert_almost_eq(_tank.fuel, 97.5, 0.001)

func test_refuel_caps_at_capacity():
	_tank.refuel(50.0)
	assert_eq(_tank.fuel, 100.0)
