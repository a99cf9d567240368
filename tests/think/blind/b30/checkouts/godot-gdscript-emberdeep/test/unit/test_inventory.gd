extends GutTest

var Inventory = preload("res://scripts/inventory/inventory.gd")
var _inv

func before_each():
	_inv = Inventory.new()
	_inv.max_stack = 3

func after_each():
	_inv.free()

func test_add_single_item():
	_inv.add_item("potion", 1)
	assert_eq(_inv.count("potion"), 1)

func test_add_merges_stacks():
	_inv.add_item("potion", 1)
	_inv.add_item("potion", 1)
	assert_eq(_inv.slots.size(), 1)

func test_remove_item_empties_slot():
	_inv.add_item("potion", 1)
	_inv.remove_item("potion", 1)
	assert_eq(_inv.slots.size(), 0)
