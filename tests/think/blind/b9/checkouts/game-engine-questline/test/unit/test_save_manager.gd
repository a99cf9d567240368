extends GutTest

func test_roundtrip_flags():
	var sm = load("res://autoload/save_manager.gd").new()
	add_child_autofree(sm)
	sm.set_flag(&"met_elder", true)
	var data = sm.serialize()
	sm.clear()
	sm.deserialize(data)
	assert_true(sm.get_flag(&"met_elder"))
