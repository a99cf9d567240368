rootProject.name = "staybook"
include(":app")
