rootProject.name = "courier"
include(":app", ":core:network", ":core:model")
