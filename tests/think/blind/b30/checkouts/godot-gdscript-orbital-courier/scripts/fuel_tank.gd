extends Node

signal empty

@export var capacity: float = 100.0
var fuel: float = 100.0


func burn(delta: float, rate: float) -> void:
	fuel -= rate * delta
	if fuel <= 0.0:
		empty.emit()


func refuel(amount: float) -> void:
	fuel = minf(fuel + amount, capacity)
